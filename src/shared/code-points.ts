/** Code points, as JSON Schema's maxLength counts a string's length (a lone surrogate counts one). */
export const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

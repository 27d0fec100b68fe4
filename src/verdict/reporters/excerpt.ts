/** At most `max` characters of a body, marked when cut, so reports stay readable. */
export function excerpt(text: string | undefined, max = 600): string {
  if (text === undefined || text === '') return '(empty)';
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

export const OPERATION_ORDER = ['listPets', 'createPet', 'getPet'] as const;

/** `1 case`, `2 cases`. */
export const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

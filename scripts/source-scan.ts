/**
 * A heuristic reading of TypeScript source, for reports and layout checks
 * that need no type information (the import graph, long functions). Not a
 * parser: it knows comments, strings, template literals and regular
 * expression literals well enough that braces and quotes inside them do not
 * count, which is what brace matching and import scanning need.
 */

/** The source with comments as spaces, and the same with string, template and regex contents as spaces too; offsets and lines unchanged. */
export interface MaskedSource {
  withoutComments: string;
  codeOnly: string;
}

// After one of these (or at the start), a `/` opens a regular expression rather than dividing.
const BEFORE_REGEX = /[(,=:[!&|?{};+\-*%<>~^]$|(^|[^\w$])(return|typeof|case|do|else|in|of|void|yield|await|delete|instanceof|new)$/;

const blank = (text: string): string => text.replace(/[^\n]/g, ' ');

export function maskSource(text: string): MaskedSource {
  let comments = '';
  let code = '';
  // Open `${` of template literals: the brace depth to return to the template at.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const emit = (kept: string, inCode: string): void => {
    comments += kept;
    code += inCode;
  };
  const lastSignificant = (): string => code.replace(/\s+$/, '').slice(-12);
  // Reads a quoted literal from i (its opening quote) to its closing quote or the end of the line.
  const literal = (quote: string): void => {
    let j = i + 1;
    while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    const body = text.slice(i + 1, j);
    emit(`${quote}${body}${text[j] === quote ? quote : ''}`, `${quote}${blank(body)}${text[j] === quote ? quote : ''}`);
    i = text[j] === quote ? j + 1 : j;
  };
  // Reads template text from i (after a backtick or a closing `}`) to the next backtick or `${`.
  const templateText = (): void => {
    let j = i;
    while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
    emit(text.slice(i, j), blank(text.slice(i, j)));
    i = j;
    if (text[i] === '`') {
      emit('`', '`');
      i += 1;
    } else if (i < text.length) {
      emit('${', '${');
      i += 2;
      depth += 1;
      templates.push(depth);
    }
  };
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const comment = text.slice(i, end === -1 ? text.length : end);
      emit(blank(comment), blank(comment));
      i += comment.length;
    } else if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      emit(blank(comment), blank(comment));
      i += comment.length;
    } else if (ch === '"' || ch === "'") {
      literal(ch);
    } else if (ch === '/' && BEFORE_REGEX.test(lastSignificant())) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j += text[j] === '\\' ? 2 : 1;
      }
      const body = text.slice(i + 1, j);
      emit(`/${body}/`, `/${blank(body)}/`);
      i = j + 1;
    } else if (ch === '`') {
      emit('`', '`');
      i += 1;
      templateText();
    } else if (ch === '}' && templates.at(-1) === depth) {
      templates.pop();
      depth -= 1;
      emit('}', '}');
      i += 1;
      templateText();
    } else {
      if (ch === '{') depth += 1;
      else if (ch === '}') depth -= 1;
      emit(ch, ch);
      i += 1;
    }
  }
  return { withoutComments: comments, codeOnly: code };
}

/** Where each bracket of `code` (a `codeOnly`) closes: opening offset to closing offset, for (), [] and {}. */
export function matchBrackets(code: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '(' || ch === '[' || ch === '{') open.push(i);
    else if (ch === ')' || ch === ']' || ch === '}') {
      const start = open.pop();
      if (start !== undefined) pairs.set(start, i);
    }
  }
  return pairs;
}

/** The 1-based line of an offset. */
export const lineOf = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

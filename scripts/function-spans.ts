import { lineOf, maskSource, matchBrackets } from './source-scan.js';

/** One function of a source file: where it starts and ends (1-based lines, both included), and its first line as written. */
export interface FunctionSpan {
  name: string;
  startLine: number;
  endLine: number;
  lines: number;
}

// Words that take `(...) {` but start no function.
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'await', 'return', 'typeof', 'new']);

/**
 * Every function with a block body in `text`: declarations, expressions,
 * methods, arrow functions. Heuristic (brace matching on the code with
 * comments and literals masked): a block is a function body when `=>`
 * comes before it, or `name(...)` optionally followed by a return type.
 * Nested functions are listed too.
 */
export function functionSpans(text: string): FunctionSpan[] {
  const { codeOnly: code } = maskSource(text);
  const pairs = matchBrackets(code);
  const closingToOpening = new Map([...pairs].map(([open, close]) => [close, open]));
  const spans: FunctionSpan[] = [];
  for (const [open, close] of pairs) {
    // `${` opens a template literal's expression, never a function body.
    if (code[open] !== '{' || code[open - 1] === '$') continue;
    const start = functionStart(code, open, closingToOpening);
    if (start === undefined) continue;
    const startLine = lineOf(text, start);
    const endLine = lineOf(text, close);
    spans.push({ name: (text.split('\n')[startLine - 1] ?? '').trim(), startLine, endLine, lines: endLine - startLine + 1 });
  }
  return spans.sort((a, b) => a.startLine - b.startLine);
}

/** The offset where the function whose body opens at `brace` starts, or undefined when the block is no function body. */
function functionStart(code: string, brace: number, closingToOpening: Map<number, number>): number | undefined {
  let i = brace - 1;
  while (i >= 0 && /\s/.test(code[i] as string)) i--;
  if (code.slice(i - 1, i + 1) === '=>') return lineStart(code, i - 1);
  // Back over a return type (`: Promise<{ ok: boolean }>`, `: (value: unknown) => boolean`) to the `)` of the parameters.
  const limit = Math.max(0, brace - 400);
  while (i >= limit) {
    const ch = code[i];
    if (ch === ';' || ch === '{' || (ch === '=' && code[i + 1] !== '>')) return undefined;
    if (ch === '}' || ch === ']') {
      i = (closingToOpening.get(i) ?? i) - 1;
    } else if (ch === ')') {
      const paren = closingToOpening.get(i);
      if (paren === undefined) return undefined;
      const between = code.slice(i + 1, brace).trim();
      // The brace is inside the return type (`stats(): { n: number };`, `: Promise<{ ok: boolean }>`): a type, no body.
      if (/(:|\||&|<|,|=>)$/.test(between) || count(between.replaceAll('=>', ''), '<') !== count(between.replaceAll('=>', ''), '>')) return undefined;
      // Anything but a return type between them: these parentheses are a function type's, or no function's; look further back.
      if ((between !== '' && !between.startsWith(':')) || count(between, '(') !== count(between, ')')) {
        i = paren - 1;
        continue;
      }
      const before = code.slice(Math.max(0, paren - 200), paren).replace(/\s*(<[^()]*>)?\s*\??\s*$/, '');
      const name = /([\w$]+)$/.exec(before)?.[1];
      return name === undefined || CONTROL.has(name) ? undefined : lineStart(code, paren);
    } else {
      i -= 1;
    }
  }
  return undefined;
}

const count = (text: string, ch: string): number => text.split(ch).length - 1;

/** The start of the line holding `offset`: where the function's header begins. */
const lineStart = (code: string, offset: number): number => code.lastIndexOf('\n', offset) + 1;

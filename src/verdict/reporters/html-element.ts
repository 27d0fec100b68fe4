import { escapeHtml } from '../../shared/html-escape.js';

/** An element around text that is escaped here; `inner` is markup made by the report itself. */
export function element(name: string, attributes: Record<string, string | undefined>, inner: string): string {
  const shown = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeHtml(value)}"`)
    .join('');
  return `<${name}${shown}>${inner}</${name}>`;
}

/** An element holding only text, escaped. */
export const textElement = (name: string, attributes: Record<string, string | undefined>, text: string): string => element(name, attributes, escapeHtml(text));

/**
 * Text written in the interface's Markdown (a statement, a rule's title, an
 * expectation citing a statement), escaped, with its code spans (`limit`)
 * shown as code and its strong emphasis (**not**) as strong, rather than as
 * backticks and asterisks. Spans are found in the escaped text, so what they
 * wrap stays escaped.
 */
export const markdownHtml = (text: string): string =>
  escapeHtml(text)
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>');

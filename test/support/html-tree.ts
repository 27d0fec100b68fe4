/**
 * The harness's HTML report read back as a tree, for its tests. The report
 * is written as well-formed markup (every element closed, attributes
 * quoted), so an XML parser reads it: fast-xml-parser, already a test
 * dependency for the JUnit report. A page that is not well-formed (markup
 * from a server let through unescaped, say) fails to parse, which is part
 * of what the tests check.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface HtmlElement {
  name: string;
  attributes: Record<string, string>;
  children: HtmlChild[];
}
export type HtmlChild = HtmlElement | string;

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** Parses the page; throws, with the parser's reason, when it is not well-formed. */
export function parseHtml(text: string): HtmlElement {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`the page is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    htmlEntities: true,
  });
  const nodes = parser.parse(text) as Ordered[];
  return { name: '#document', attributes: {}, children: nodes.map(toChild) };
}

function toChild(node: Ordered): HtmlChild {
  if ('#text' in node) return String(node['#text']);
  const name = Object.keys(node).find((key) => key !== ':@') as string;
  return { name, attributes: node[':@'] ?? {}, children: (node[name] as Ordered[]).map(toChild) };
}

/** Every element below `root` (itself included) that `test` accepts, in document order. */
export function findAll(root: HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement[] {
  const found: HtmlElement[] = test(root) ? [root] : [];
  for (const child of root.children) if (typeof child !== 'string') found.push(...findAll(child, test));
  return found;
}

/** The element with this id; throws when there is none or more than one. */
export function byId(root: HtmlElement, id: string): HtmlElement {
  const found = findAll(root, (e) => e.attributes.id === id);
  if (found.length !== 1) throw new Error(`${found.length} elements with id="${id}"`);
  return found[0] as HtmlElement;
}

/** The elements of this name and (optionally) this class below `root`. */
export const select = (root: HtmlElement, name: string, className?: string): HtmlElement[] =>
  findAll(root, (e) => e.name === name && (className === undefined || (e.attributes.class ?? '').split(' ').includes(className)));

/** The text a reader sees in an element, entities decoded. */
export const textOf = (node: HtmlChild): string => (typeof node === 'string' ? node : node.children.map(textOf).join(''));

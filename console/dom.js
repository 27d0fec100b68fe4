// @ts-check
/**
 * Building the page's elements. Every text the server sends goes in through
 * `textContent` (here, as a child string), never `innerHTML`: a journal path
 * such as `/v1/pets/<img src=x onerror=alert(1)>` shows as text, and the
 * page's CSP (script-src 'self') is the second line of defence.
 */

/**
 * @typedef {Record<string, string | boolean | number | undefined | ((event: Event) => void)>} Props
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * An element with attributes (`on…` as listeners; `true` as an empty
 * attribute; false or undefined left out) and children (strings as text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {Child[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/**
 * @param {Node} node
 * @param {Child[]} children
 */
export function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces a node's children.
 * @param {Node} node
 * @param {Child[]} [children]
 */
export function fill(node, children = []) {
  node.textContent = '';
  append(node, children);
}

/**
 * The element with this id, which the page must have.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

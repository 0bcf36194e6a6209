/// <reference lib="dom" />
// A tiny element builder: the console draws everything with it, so no HTML string is ever parsed
// and everything an agent says lands in the page as text.
import { ago, waited } from './relative-time.ts';

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Listener = (event: Event) => void;
export type Attributes = Record<string, string | number | boolean | null | undefined | Listener>;

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else parent.appendChild(typeof child === 'object' ? (child as Node) : document.createTextNode(String(child)));
  }
}

function apply(element: Element, attributes: Attributes | undefined): void {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'value' && 'value' in element) (element as HTMLInputElement).value = String(value);
    else if (name === 'checked' && element instanceof HTMLInputElement) element.checked = value === true;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
}

/** An HTML element with attributes (`on…` are listeners) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, for the charts the console draws itself. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

/** Replace everything inside an element. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let ids = 0;
/** A fresh id for tying labels, help and errors to their controls. */
export const uniqueId = (prefix: string): string => `${prefix}-${++ids}`;

/** A time as people read it, in the browser's own locale and zone. */
export function when(at: string | number): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time as "4 min ago" (or "waiting 4 min"), the exact time on hover; redrawn by `refreshRelativeTimes`. */
export function timeElement(at: string | number, style: 'ago' | 'waited' = 'ago'): HTMLTimeElement {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return h('time', {});
  return h('time', { datetime: date.toISOString(), title: when(at), class: `relative ${style}` }, (style === 'ago' ? ago : waited)(date.getTime(), Date.now()));
}

/** Redraw every relative time on the page, so "just now" does not stay "just now". */
export function refreshRelativeTimes(): void {
  const now = Date.now();
  for (const element of Array.from(document.querySelectorAll<HTMLTimeElement>('time.relative'))) {
    const at = Date.parse(element.dateTime);
    if (!Number.isNaN(at)) element.textContent = (element.classList.contains('waited') ? waited : ago)(at, now);
  }
}

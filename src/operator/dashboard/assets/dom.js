// A small element builder, so no module writes HTML strings (every text is a text node: nothing
// the daemon or a loan request says can become markup).

/**
 * h('td', { class: 'num', dataset: { testid: 'x' } }, 'text', child) → an element.
 * Attributes: `class`, `dataset`, `on` (event → handler), anything else as an attribute
 * (false/null/undefined leave it out, true sets it empty).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'on') for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** The element with this data-testid (they name the parts of the page). */
export function byTestId(id) {
  const element = document.querySelector(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`the page has no [data-testid="${id}"]`);
  return element;
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A <dl> of label → value pairs (values may be nodes). */
export function definitions(pairs, attributes = {}) {
  return h(
    'dl',
    { class: 'pairs', ...attributes },
    pairs.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]),
  );
}

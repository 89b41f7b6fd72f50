/**
 * A tiny element builder. Every piece of data reaches the DOM as text (`textContent`) or as an attribute
 * value set through the DOM API; nothing here ever parses HTML, so plan and model text cannot inject markup.
 */
export type Child = Node | string | null | undefined | false;

export interface Props {
  className?: string;
  /** Attributes, set with setAttribute (values are data, never markup). */
  attrs?: Record<string, string | boolean | undefined>;
  /** Event listeners. */
  on?: Record<string, (event: Event) => void>;
  /** Properties assigned directly (e.g. `value` of a textarea component). */
  props?: Record<string, unknown>;
}

/** Properties each element was given (not in its markup), so two renderings can be compared whole (../patch.ts). */
export const propsOf = new WeakMap<Element, Record<string, unknown>>();

export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (props.className) el.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const [name, listener] of Object.entries(props.on ?? {})) el.addEventListener(name, listener);
  for (const [name, value] of Object.entries(props.props ?? {})) (el as unknown as Record<string, unknown>)[name] = value;
  if (props.props) propsOf.set(el, props.props);
  append(el, children);
  return el;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** A codicon glyph (decorative unless a label is given). */
export function icon(name: string, label?: string, extraClass = ''): HTMLElement {
  return h('span', {
    className: `codicon codicon-${name} ${extraClass}`.trim(),
    attrs: label ? { role: 'img', 'aria-label': label, title: label } : { 'aria-hidden': 'true' },
  });
}

/**
 * A vscode-button with text and an optional codicon; `secondary` for the less prominent action. The codicon
 * is a light-DOM span styled by the page's codicon.css, not the button's `icon` attribute: that one renders
 * a <vscode-icon> whose shadow root loads the stylesheet again for every new button, so after each
 * re-render the glyphs were missing until it loaded (seconds on a busy machine).
 */
export function button(
  label: string,
  onClick: (event: Event) => void,
  options: { icon?: string; secondary?: boolean; ariaLabel?: string; testId?: string; disabled?: boolean; focusKey?: string; title?: string } = {},
): HTMLElement {
  return h(
    'vscode-button',
    {
      attrs: {
        secondary: options.secondary ?? false,
        // Focusable from the start: the component reflects its own tabindex only at its first update (a
        // microtask later), and focus sent to a fresh button before then was lost.
        tabindex: options.disabled ? '-1' : '0',
        'aria-label': options.ariaLabel,
        title: options.title,
        'data-testid': options.testId,
        // Where keyboard focus can be sent after a re-render (see RenderContext.focusAfterRender).
        'data-focus-key': options.focusKey,
        disabled: options.disabled ?? false,
      },
      on: { click: (event: Event) => onClick(event) },
    },
    options.icon ? buttonIcon(options.icon) : null,
    label,
  );
}

/** A codicon in a vscode-button's `content-before` slot (light DOM: styled by the page's codicon.css). */
function buttonIcon(name: string): HTMLElement {
  const glyph = icon(name, undefined, 'button-icon');
  glyph.setAttribute('slot', 'content-before');
  return glyph;
}

/** A small icon-only button (dismiss, revoke): a native button with a codicon, named by `label`. */
export function iconButton(name: string, label: string, onClick: (event: Event) => void, testId?: string): HTMLElement {
  return h(
    'button',
    {
      className: 'icon-button',
      attrs: { type: 'button', 'aria-label': label, title: label, 'data-testid': testId },
      on: { click: (event: Event) => onClick(event) },
    },
    icon(name),
  );
}

export function badge(text: string, title?: string, className = 'badge'): HTMLElement {
  return h('span', { className, attrs: { title } }, text);
}

export function section(title: string, testId: string, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { className: 'section', attrs: { 'aria-label': title, 'data-testid': testId } },
    h('h2', { className: 'section-title' }, title),
    ...children,
  );
}

/**
 * Moves keyboard focus to `el`, also when it is a web component that was just created: those render their
 * shadow root (and an input that takes the focus) only at their first update, a microtask later.
 */
export function focusElement(el: HTMLElement): void {
  el.focus();
  if (el === document.activeElement || el.contains(document.activeElement)) return;
  const pending = (el as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  if (pending) void pending.then(() => (el.isConnected ? el.focus() : undefined));
}

// Tiny DOM helpers: h('div.card', {onclick}, child, …) builds elements.
export function h(spec, attrs, ...children) {
  // 'button.primary#send' → <button class="primary" id="send">
  const tag = /^[a-z0-9-]*/i.exec(spec)[0];
  const el = document.createElement(tag || 'div');
  const classes = [];
  for (const [, kind, name] of spec.slice(tag.length).matchAll(/([.#])([^.#]+)/g)) {
    if (kind === '#') el.id = name; else classes.push(name);
  }
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) { children.unshift(attrs); attrs = null; }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** copyText copies to the clipboard and reports the result on a button. */
export async function copyText(text, button) {
  let ok = true;
  try { await navigator.clipboard.writeText(text); } catch (e) {
    // No clipboard permission (e.g. http on a LAN address): select a textarea instead.
    const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } }, text);
    document.body.append(ta);
    ta.select();
    try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
    ta.remove();
  }
  if (button) {
    const was = button.textContent;
    button.textContent = ok ? 'copied' : 'copy failed';
    setTimeout(() => { button.textContent = was; }, 1200);
  }
  return ok;
}

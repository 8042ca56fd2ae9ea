// The first-run welcome: what this page is, and three things to try — a
// guided scenario, kubectl in the Terminal tab, a request in the console.
// Shown once (localStorage remembers it was seen), on a first visit that
// does not go straight to a tab or scenario by its link; the header's Help
// button opens it again. It is a card above the tabs, not a modal: the page
// stays usable around it.
//
//   const w = welcome({ onScenario, onKubectl, onRequest }); header.after(w.el);
//   w.maybeShow(location.hash); w.show(); w.hide();
import { h } from './dom.js';

export const SEEN_KEY = 'kubesandbox.playground.welcomed';

export const TRY = {
  scenario: { id: 'deploy-rollout', title: 'Deploy, scale, roll out, delete' },
  kubectl: 'kubectl get nodes,deployments -A',
  request: { method: 'GET', path: '/api/v1/namespaces', headers: 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' },
};

const seen = () => { try { return localStorage.getItem(SEEN_KEY) === '1'; } catch (e) { return false; } };
const remember = () => { try { localStorage.setItem(SEEN_KEY, '1'); } catch (e) { /* private mode: shown again next time */ } };

export function welcome({ onScenario, onKubectl, onRequest }) {
  const close = h('button.small.w-close', { type: 'button', 'aria-label': 'close the welcome' }, '✕');
  const item = (n, title, text, button) => h('li.try', { dataset: { try: n } }, h('h3', title), h('p', text), button);
  const el = h('section.welcome#welcome', { role: 'region', 'aria-labelledby': 'welcome-title', hidden: true },
    h('div.w-head', h('h2#welcome-title', 'Welcome to kubesandbox'), close),
    h('p.w-intro', 'A Kubernetes API server (v1.37.2) running in this tab: real API machinery, built-in kinds and their controllers. Nothing leaves your machine. Three things to try:'),
    h('ol.try-list',
      item('scenario', '1. A guided scenario', `"${TRY.scenario.title}": the controllers make ReplicaSets and Pods, a rollout rolls; every step explained.`,
        h('button.primary', { type: 'button', onclick: () => act(onScenario, TRY.scenario.id) }, 'Open the scenario')),
      item('kubectl', '2. kubectl in the Terminal', h('code', TRY.kubectl),
        h('button.primary', { type: 'button', onclick: () => act(onKubectl, TRY.kubectl) }, 'Run it in the Terminal')),
      item('request', '3. A request of your own', ['List the namespaces as kubectl sees them (', h('code', 'as=Table'), '), then try New object… and Ctrl+Space in the body.'],
        h('button.primary', { type: 'button', onclick: () => act(onRequest, TRY.request) }, 'Send it'))),
    h('p.muted.small.w-foot', 'The Help button in the header brings this back.'));
  // act runs a thing to try; a failure (a command still running in the Terminal) is told, not thrown
  function act(fn, arg) {
    hide();
    return Promise.resolve().then(() => fn(arg)).catch((e) => console.warn('welcome:', e.message));
  }
  function show() { el.hidden = false; remember(); }
  function hide() { el.hidden = true; }
  close.addEventListener('click', hide);
  el.addEventListener('keydown', (e) => { if (e.key === 'Escape') hide(); });
  return {
    el, show, hide,
    toggle() { if (el.hidden) { show(); el.querySelector('button.primary').focus(); } else hide(); },
    /** maybeShow shows it on a first visit to the plain page (no #tab or #scenarios/… link). */
    maybeShow(hash) {
      if (seen() || (hash && hash !== '#' && hash !== '#console')) return false;
      show();
      return true;
    },
  };
}

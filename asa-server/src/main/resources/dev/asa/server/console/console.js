// The ASA console (issue 18). Plain JavaScript modules, no build step, no other host: this file
// signs in and routes; api.js signs every request with the caller's own key; the pages draw what
// the API answers (list.js, agreement.js with actions.js, evaluators.js, health.js).

import { api, currentSession, didKey, endSession, importKeyFile, startSession } from './api.js';
import { showAgreement, stopTicking } from './agreement.js';
import { $, say } from './dom.js';
import { showEvaluator, showEvaluators } from './evaluators.js';
import { showHealth } from './health.js';
import { installList, loadList, resetList } from './list.js';

const PAGES = ['sign-in', 'list', 'agreement', 'evaluators', 'health'];

function show(page, focus) {
  for (const id of PAGES) $(id).hidden = id !== page;
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.page === (page === 'agreement' ? 'list' : page)) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  // A new page: move focus to its content, as a page load would, for keyboard and screen readers.
  if (focus) $('main').focus();
}

/** Whether the key is the operator's: the one route only the operator may read answers it. */
async function isOperator() {
  try {
    await api('GET', '/admin/config');
    return true;
  } catch {
    return false;
  }
}

async function onKeyChosen() {
  const error = $('sign-in-error');
  say(error, null);
  const file = $('key-file').files[0];
  if (!file) return;
  try {
    const { key, keyId } = await importKeyFile(file);
    // As "asa agreements list" does: without an identity, the key's own did:key.
    const party = $('party').value.trim() || didKey(keyId);
    startSession(key, keyId, party, false);
    const operator = await isOperator();
    startSession(key, keyId, $('party').value.trim() || (operator ? '' : party), operator);
  } catch (e) {
    endSession();
    say(error, 'Sign-in failed: ' + e.message);
  } finally {
    $('key-file').value = ''; // the file's content is not kept by the form either
  }
  const session = currentSession();
  if (session) {
    $('who').textContent = (session.operator ? 'operator' + (session.party ? ' · ' + session.party : '') : session.party)
      + ' · key ' + session.keyId;
    $('who').hidden = false;
    $('sign-out').hidden = false;
    $('nav').hidden = false;
    $('f-party').value = session.party;
    route(true);
  }
}

function signOut() {
  endSession();
  $('filters').reset();
  stopTicking();
  resetList();
  for (const id of ['agreement-body', 'evaluators-body', 'health-body']) $(id).replaceChildren();
  $('who').hidden = true;
  $('sign-out').hidden = true;
  $('nav').hidden = true;
  $('party').value = '';
  location.hash = '#/';
  route(true);
}

function navigate(hash) {
  location.hash = hash;
}

/** A path segment of the hash, decoded; a malformed escape (a hand-typed %E0) stays as typed. */
function segment(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function route(focus) {
  stopTicking();
  if (!currentSession()) {
    show('sign-in', false);
    return;
  }
  const hash = location.hash || '#/';
  let m;
  if ((m = /^#\/agreements\/([^/]+)$/.exec(hash))) {
    show('agreement', focus);
    showAgreement(segment(m[1]));
  } else if ((m = /^#\/evaluators\/([^/]+)$/.exec(hash))) {
    show('evaluators', focus);
    showEvaluator(segment(m[1]));
  } else if (hash === '#/evaluators') {
    show('evaluators', focus);
    showEvaluators();
  } else if (hash === '#/health') {
    show('health', focus);
    showHealth();
  } else {
    show('list', focus);
    loadList(false);
  }
}

$('key-file').addEventListener('change', onKeyChosen);
$('sign-in-form').addEventListener('submit', (e) => e.preventDefault());
$('sign-out').addEventListener('click', signOut);
$('ev-filter').addEventListener('submit', (e) => {
  e.preventDefault();
  if (location.hash === '#/evaluators') showEvaluators(); else navigate('#/evaluators');
});
installList(navigate);
window.addEventListener('hashchange', () => route(true));
route(false);

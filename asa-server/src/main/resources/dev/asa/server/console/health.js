// Health at a glance, for the operator (GET /admin/health): agreements and money by state and
// currency, the verification backlog and its latency, the outbox and the timers, from the same
// figures /metrics serves.

import { api } from './api.js';
import { $, definitionList, el, heading, say, table } from './dom.js';

/** "mean 12 ms, max 40 ms", or a word while nothing is measured. */
function latency(mean, max) {
  return mean != null ? 'mean ' + mean + ' ms, max ' + max + ' ms' : 'nothing measured yet';
}

export async function showHealth() {
  const body = $('health-body');
  const error = $('health-error');
  say(error, null);
  body.replaceChildren(el('p', 'Loading…'));
  let h;
  try {
    h = await api('GET', '/admin/health');
  } catch (e) {
    body.replaceChildren();
    say(error, 'The server refused: ' + e.message
      + (e.status === 403 ? ' (the health page is for the operator\'s key)' : ''));
    return;
  }
  body.replaceChildren(el('p', 'As of ' + h.generated_at + '.'));
  const byState = Object.entries((h.agreements || {}).by_state || {});
  body.append(heading(3, 'Agreements and money by state', 'h-h-agreements'));
  body.append(table('Agreements and the amounts they carry, by state', ['State', 'Agreements', 'Amounts'],
    byState.map(([state, v]) => [state, v.count,
      Object.entries(v.amounts || {}).map(([c, a]) => a + ' ' + c).join(', ') || '—'])));
  body.append(heading(3, 'Ledger', 'h-h-ledger'));
  const ledger = h.ledger || [];
  body.append(ledger.length
    ? table('Money moved through the ledger, by kind and currency', ['Kind', 'Currency', 'Amount'],
      ledger.map((l) => [l.kind, l.currency, l.amount]))
    : el('p', 'Nothing has moved through the ledger yet.'));
  const jobs = h.verification_jobs || {};
  const outbox = h.outbox || {};
  const timers = h.timers || {};
  const requests = h.requests || {};
  body.append(heading(3, 'Work in progress', 'h-h-work'));
  body.append(definitionList([
    ['Verification jobs queued', jobs.queued],
    ['Verification jobs running', jobs.running],
    ['Verification jobs finished', jobs.finished],
    ['Verification latency', latency(jobs.mean_ms, jobs.max_ms)],
    ['Outbox messages pending', outbox.pending],
    ['Outbox attempts', Object.entries(outbox.attempts || {}).map(([k, v]) => k + ' ' + v).join(', ') || 'none'],
    ['Timers pending', timers.pending],
    ['Timers fired', timers.fired],
    ['Timer lag', latency(timers.mean_lag_ms, timers.max_lag_ms)],
    ['Requests served', requests.count != null ? requests.count + ' (' + (requests.errors_5xx ?? 0) + ' server errors)' : '—'],
  ]));
}

// One agreement's whole story: terms, parties, negotiation, deadlines, deliverable, verification,
// shadow report, events (hash chain checked here), escrow ledger and outbox, and the actions the
// caller may take now. Every figure is the API's; the page only arranges it.

import { api, canonicalize, checkChain, currentSession, didKey } from './api.js';
import { actionPanel } from './actions.js';
import { $, countdown, definitionList, el, heading, idText, meter, nameText, say, table } from './dom.js';

let ticking = null;
/** Counts the page's draws: an answer that arrives after the user moved on is dropped. */
let drawing = 0;

/** The roles the caller's key holds in the agreement, as the server's access policy reads them. */
export function rolesOf(doc, keyId) {
  const roles = [];
  const parties = doc.parties || {};
  const ownDid = didKey(keyId);
  for (const role of ['client', 'provider', 'evaluator']) {
    const p = parties[role] || {};
    const key = p.verification_key && p.verification_key.value;
    // A did:key identity is the key itself, and needs no verification_key beside it.
    const did = p.identity && p.identity.scheme === 'did' && p.identity.value;
    if ((key && key === keyId) || (!key && did && did === ownDid)) roles.push(role);
  }
  // Pool evaluators assigned at activation hold the evaluator's role as a named one does.
  const assignment = (doc.metadata || {}).assigned_evaluators || {};
  for (const assigned of assignment.evaluators || []) {
    if (assigned && assigned.key === keyId && !roles.includes('evaluator')) roles.push('evaluator');
  }
  return roles;
}

/**
 * A party as a reader knows it: its display name where it has one, and its identity (a long one
 * shortened, whole in its title and behind a copy button).
 *
 * @param what the party, as the copy button names it ("the client")
 */
function partyText(p, what = 'the party') {
  if (!p) return '—';
  const id = p.identity && p.identity.value;
  const out = el('span', null, 'party');
  if (p.display_name) {
    out.append(nameText(p.display_name));
    if (id === p.display_name) return out;
    out.append(' · ');
  }
  out.append(id ? idText(id, what + '\'s identity') : el('span', 'no identity'));
  return out;
}

/** The named evaluator, or the ones the pool assigned (a pool agreement names none). */
function evaluatorText(named, assignment) {
  if (named) return named.type === 'builtin' && !named.identity ? 'the server\'s built-in evaluator' : partyText(named, 'the evaluator');
  const assigned = (assignment && assignment.evaluators) || [];
  if (!assigned.length) return 'from the pool, once the agreement is active';
  const out = el('span');
  assigned.forEach((a, i) => out.append(i ? ', ' : '', partyText(a, 'the evaluator')));
  out.append(', assigned from the pool (' + (assignment.mode || '') + ')');
  return out;
}

function actorText(actor) {
  if (actor === null || actor === undefined) return '—';
  if (typeof actor !== 'object') return String(actor);
  if (!actor.role) return canonicalize(actor);
  if (!actor.key) return actor.role;
  const out = el('span', actor.role + ' ');
  out.append(idText(actor.key, 'the ' + actor.role + '\'s key'));
  return out;
}

function sloText(s) {
  return s ? s.operator + ' ' + JSON.stringify(s.value) : '—';
}

function jsonText(v) {
  return v === undefined ? '—' : el('span', canonicalize(v), 'mono');
}

/**
 * Loads and draws the agreement; refusals are shown as the API gave them, and nothing else.
 *
 * @param lastOutcome what the last action answered, kept on the redrawn page
 */
export async function showAgreement(id, lastOutcome) {
  stopTicking();
  const draw = drawing;
  const error = $('agreement-error');
  const body = $('agreement-body');
  say(error, null);
  body.replaceChildren();
  $('agreement-title').textContent = 'Agreement ' + id;
  const path = '/agreements/' + encodeURIComponent(id);
  let envelope;
  let status;
  let events;
  try {
    [envelope, status, events] = await Promise.all([
      api('GET', path), api('GET', path + '/status'), api('GET', path + '/events')]);
  } catch (e) {
    say(error, 'The server refused: ' + e.message);
    return;
  }
  if (draw !== drawing) return; // navigated away meanwhile
  const optional = (p) => api('GET', path + p).catch((e) => ({ refused: e }));
  const [negotiation, verification, escrow] = await Promise.all([
    optional('/negotiation'), optional('/verification'), optional('/escrow')]);
  if (draw !== drawing) return;

  const doc = envelope.agreement || {};
  const session = currentSession();
  const roles = rolesOf(doc, session.keyId);
  body.append(summary(envelope, doc, roles));
  body.append(actionPanel({
    id, path, envelope, status, doc, roles, operator: session.operator, lastOutcome,
    reload: (message) => showAgreement(id, message),
  }));
  body.append(deadlines(status));
  body.append(terms(doc));
  body.append(negotiationSection(negotiation));
  body.append(deliverable(status));
  body.append(verificationSection(verification));
  if (status.dispute) body.append(disputeSection(status.dispute));
  body.append(await eventsSection(id, events));
  body.append(escrowSection(escrow, status, doc));
  if (lastOutcome) {
    // After an action the page is redrawn: keep a keyboard user's place at the outcome.
    const outcome = $('action-outcome');
    outcome.tabIndex = -1;
    outcome.focus();
  }
}

/** Leaves the page: stops its countdowns and drops any answer still on its way. */
export function stopTicking() {
  if (ticking) clearInterval(ticking);
  ticking = null;
  drawing++;
}

function section(title, id) {
  const s = el('section');
  s.setAttribute('aria-labelledby', id);
  s.append(heading(3, title, id));
  return s;
}

function summary(envelope, doc, roles) {
  const parties = doc.parties || {};
  const payment = (doc.escrow && doc.escrow.payment) || {};
  const session = currentSession();
  const you = roles.length ? roles.join(' and ') : session.operator ? 'operator' : 'no role';
  return definitionList([
    ['State', el('span', envelope.state, 'state state-' + String(envelope.state).toLowerCase())],
    ['Service type', doc.service && doc.service.type],
    ['Description', doc.service && doc.service.description],
    ['Amount', payment.amount ? payment.amount + ' ' + (payment.currency || '') : '—'],
    ['Client', partyText(parties.client, 'the client')],
    ['Provider', partyText(parties.provider, 'the provider')],
    ['Evaluator', evaluatorText(parties.evaluator, (doc.metadata || {}).assigned_evaluators)],
    ['You are', you],
    ['Agreement hash', el('span', envelope.agreement_hash, 'mono')],
  ]);
}

function deadlines(status) {
  const s = section('Deadlines', 'h-deadlines');
  const d = status.deadlines || {};
  const rows = [];
  const names = {
    negotiation_timeout: 'negotiation ends without a message',
    expires_at: 'the agreement expires',
    client_funding_timeout: 'the client must have funded the escrow',
    provider_delivery_timeout: 'the provider must have delivered',
    evaluator_timeout: 'the evaluator must have judged',
    challenge_window: 'the challenge window closes and the result is enforced',
  };
  for (const t of d.timers || []) rows.push([names[t.kind] || t.kind, t.due_at]);
  if (d.expires_at && !(d.timers || []).some((t) => t.kind === 'expires_at')) rows.push([names.expires_at, d.expires_at]);
  const windowLine = challengeWindowText(status);
  if (windowLine) s.append(el('p', windowLine, 'window'));
  if (rows.length === 0) {
    s.append(el('p', 'No deadline is running: nothing is due from anyone.'));
    return s;
  }
  const cells = rows.map(([what, at]) => {
    const left = el('span', countdown(at), 'countdown');
    left.dataset.due = at;
    return [what, at, left];
  });
  s.append(table('Deadlines, soonest first', ['What', 'Due at', 'Time left'], cells));
  ticking = setInterval(() => {
    for (const c of document.querySelectorAll('#agreement-body .countdown')) c.textContent = countdown(c.dataset.due);
  }, 1000);
  return s;
}

/**
 * Where the challenge window stands, from the server's own flags: open only while the result waits
 * in VERIFIED; a challenge (and the ruling after it) or the close ends it before its time.
 */
function challengeWindowText(status) {
  const d = status.deadlines || {};
  const closes = d.challenge_window_closes_at;
  if (!closes) return null;
  if (d.challenge_window_open) return 'The challenge window is open until ' + closes + '.';
  const dispute = status.dispute;
  if (dispute) {
    return 'The challenge window closed with ' + (dispute.filed_by ? 'the ' + dispute.filed_by + '\'s' : 'a')
      + ' challenge at ' + dispute.filed_at
      + (status.ruling ? '; the dispute was ruled at ' + status.ruling.ruled_at + ' (see Escrow)' : '') + '.';
  }
  if (Date.parse(closes) <= Date.now()) return 'The challenge window closed at ' + closes + '.';
  return 'The challenge window is closed: the result no longer waits in VERIFIED (' + status.state + ').';
}

function terms(doc) {
  const s = section('Terms', 'h-terms');
  const criteria = doc.quality_criteria || {};
  s.append(table('Quality dimensions: weight, metric and service level', ['Dimension', 'Weight', 'Metric', 'SLO', 'Shadow metric', 'Shadow SLO'],
    (criteria.dimensions || []).map((d) => [
      d.name,
      meter('weight of ' + d.name, Math.round((d.weight || 0) * 100), { text: String(d.weight) }),
      d.metric, sloText(d.slo), d.shadow_metric, d.shadow_metric ? sloText(d.shadow_slo) : '—'])));
  s.append(el('p', 'Composite threshold: ' + (criteria.composite_threshold ?? '—')
    + ' (' + (criteria.composite_method || '—') + ')'));
  const release = ((doc.escrow || {}).payment || {}).graduated_release;
  if (release && release.enabled && Array.isArray(release.tiers)) {
    s.append(table('Payment release by composite score', ['Composite score', 'Released to the provider'],
      release.tiers.map((t) => [
        t.composite_score_gte != null ? '≥ ' + t.composite_score_gte : '< ' + t.composite_score_lt,
        meter('release for this tier', t.release_percent, { text: t.release_percent + ' %' })])));
  } else if (release && release.enabled) {
    s.append(el('p', 'Release: ' + (release.mode || 'graduated') + ' ' + canonicalize(release)));
  }
  const dms = (doc.escrow || {}).dead_mans_switch;
  if (dms) {
    s.append(definitionList([
      ['Client must fund within', dms.client_timeout_seconds != null ? dms.client_timeout_seconds + ' s' : '—'],
      ['Provider must deliver within', dms.provider_timeout_seconds != null ? dms.provider_timeout_seconds + ' s' : '—'],
      ['Evaluator must judge within', dms.evaluator_timeout_seconds != null ? dms.evaluator_timeout_seconds + ' s' : '—'],
      ['If the evaluator does not', dms.timeout_action],
      ['Challenge window', ((doc.verification || {}).challenge_window_seconds ?? '—') + ' s'],
    ]));
  }
  return s;
}

function negotiationSection(answer) {
  const s = section('Negotiation', 'h-negotiation');
  if (answer.refused) {
    s.append(el('p', 'No transcript: ' + answer.refused.message));
    return s;
  }
  const rounds = answer.rounds || [];
  if (rounds.length === 0) {
    s.append(el('p', 'No negotiation: the terms are the ones proposed.'));
    return s;
  }
  s.append(table('Negotiation, round by round', ['Round', 'Party', 'Action', 'Rationale', 'Changes (before → after)', 'At'],
    rounds.map((r) => {
      const changes = el('ul', null, 'changes');
      for (const c of r.changes || []) {
        changes.append(el('li', c.path + ': ' + canonicalize(c.before) + ' → ' + canonicalize(c.after)));
      }
      if (!changes.childElementCount) changes.append(el('li', r.reason || 'no change'));
      return [r.round, r.party, r.action || r.event, r.rationale_code, changes, r.at];
    })));
  return s;
}

function deliverable(status) {
  const s = section('Deliverable', 'h-deliverable');
  const d = status.deliverable;
  if (!d) {
    s.append(el('p', 'Nothing delivered yet.'));
    return s;
  }
  s.append(definitionList([
    ['Content digest', el('span', d.content_hash, 'mono')],
    ['Size', d.size_bytes != null ? d.size_bytes + ' bytes' : '—'],
    ['Format', d.format],
    ['Delivered at', d.delivered_at],
  ]));
  return s;
}

function verificationSection(result) {
  const s = section('Verification', 'h-verification');
  if (result.refused) {
    s.append(el('p', result.refused.status === 404 ? 'No verification result yet.' : 'No result: ' + result.refused.message));
    return s;
  }
  const det = result.determination || {};
  const composite = result.composite || {};
  s.append(definitionList([
    ['Result', el('strong', det.result, det.result === 'PASS' ? 'ok' : 'error')],
    ['Composite', meter('composite score', composite.score, { low: composite.threshold, optimum: 100,
      text: composite.score + ' (threshold ' + composite.threshold + ', ' + composite.method + ')' })],
    ['Payment released', det.payment_release_percent != null ? det.payment_release_percent + ' %' : '—'],
    ['Confidence', det.confidence],
    ['Notes', det.notes],
    ['Evaluator', result.evaluator ? evaluatorOfResult(result.evaluator) : '—'],
  ]));
  s.append(table('Score per dimension against its service level', ['Dimension', 'Score', 'SLO target', 'Met', 'Evidence', 'Shadow metric'],
    (result.dimensions || []).map((d) => {
      const target = typeof d.slo_target === 'number' ? d.slo_target : undefined;
      const score = typeof d.score === 'number'
        ? meter('score of ' + d.name, d.score, { low: target, optimum: 100, text: String(d.score) })
        : d.score;
      const shadow = d.shadow_metric
        ? d.shadow_metric.name + ' = ' + (d.shadow_metric.value ?? 'not measured') + ' (target ' + d.shadow_metric.slo_target
          + (d.shadow_metric.slo_met === null || d.shadow_metric.slo_met === undefined ? '' : d.shadow_metric.slo_met ? ', met' : ', missed') + ')'
        : '—';
      return [d.name, score, JSON.stringify(d.slo_target), d.slo_met ? 'yes' : 'no', d.evidence, shadow];
    })));
  if ((result.quality_gates || []).length) {
    s.append(table('Quality gates (' + (result.gate_logic || '') + ')', ['Gate', 'Passed', 'Evidence'],
      result.quality_gates.map((g) => [g.condition, g.passed ? 'yes' : 'no', g.evidence])));
  }
  if (result.consensus) {
    s.append(heading(4, 'Consensus of the panel', 'h-consensus'));
    s.append(definitionList(Object.entries(result.consensus).map(([k, v]) => [k, typeof v === 'object' ? jsonText(v) : v])));
  }
  const shadow = result.shadow_score;
  s.append(heading(4, 'Shadow report', 'h-shadow'));
  if (!shadow) {
    s.append(el('p', 'No sealed criteria: this agreement has no shadow report.'));
  } else {
    const report = shadow.report || {};
    s.append(definitionList([
      ['Shadow score', report.shadow_score],
      ['Level', report.level],
      ['Gate', result.shadow_gate],
      ['Sealed hash', el('span', report.sealed_hash, 'mono')],
      ['Sealed tests', shadow.sealed_tests ? shadow.sealed_tests.passed + ' of ' + shadow.sealed_tests.total + ' passed' : '—'],
      ['Open tests', shadow.open_tests ? shadow.open_tests.passed + ' of ' + shadow.open_tests.total + ' passed' : '—'],
    ]));
    if ((shadow.failures || []).length) {
      s.append(table('Sealed tests that failed', ['Test', 'Category', 'Expected', 'Actual', 'Message'],
        shadow.failures.map((f) => [f.test_name, f.category, f.expected, f.actual, f.message])));
    }
  }
  if (result.shadow_warning) s.append(el('p', 'Shadow warning: ' + result.shadow_warning, 'error'));
  const trail = result.evidence_trail || {};
  s.append(definitionList([
    ['Deliverable hash', el('span', trail.deliverable_hash, 'mono')],
    ['Evaluation hash', el('span', trail.evaluation_hash, 'mono')],
    ['Evaluation took', trail.evaluation_duration_ms != null ? trail.evaluation_duration_ms + ' ms' : '—'],
  ]));
  return s;
}

function evaluatorOfResult(evaluator) {
  const out = el('span');
  out.append(partyText(evaluator, 'the evaluator'), ' · ' + (evaluator.type || ''));
  return out;
}

function disputeSection(dispute) {
  const s = section('Dispute', 'h-dispute');
  s.append(definitionList(Object.entries(dispute).map(([k, v]) =>
    [k.replace(/_/g, ' '), v !== null && typeof v === 'object' ? jsonText(v) : v])));
  return s;
}

async function eventsSection(id, events) {
  const s = section('Events', 'h-events');
  const list = events.events || [];
  const checks = await checkChain(id, list);
  const intact = checks.every((c) => c.ok);
  s.append(el('p', (intact ? 'Hash chain checked in this page: intact, ' : 'Hash chain checked in this page: BROKEN, ')
    + list.length + ' event(s). The server reports chain_valid = ' + events.chain_valid + '.',
  intact ? 'ok chain' : 'error chain'));
  s.append(table('Events, oldest first, each linked to the one before', ['#', 'Type', 'Actor', 'At', 'Hash', 'Checked'], list.map((e, i) => [
    e.seq, e.type, actorText(e.actor), e.at, el('span', e.hash, 'mono'),
    el('span', checks[i].ok ? '✓ ' + checks[i].why : '✗ ' + checks[i].why, checks[i].ok ? 'ok' : 'error'),
  ])));
  return s;
}

/** Why the money settled as it did, in words. */
function settledBy(reason) {
  if (reason === 'ruling') return 'the ruling on the dispute';
  if (reason === 'verification_result') return 'the verification result';
  return reason ? String(reason).replace(/_/g, ' ') : '—';
}

/**
 * How the money was finally split (the settlement fact: GET /agreements/{id}/status's payment,
 * the agreement's metadata.settlement) and, after a dispute, the ruling that split it: the share
 * released, the reason, who ruled and when.
 */
function settlementPart(status, doc) {
  const parts = [];
  const payment = status.payment || {};
  const settled = payment.settled_at ? payment : ((doc.metadata || {}).settlement || null);
  const ruling = status.ruling || (settled && settled.ruling) || null;
  if (ruling) {
    const percent = ruling.release_percent;
    const by = el('span', ruling.ruled_by || '—');
    if (ruling.key) by.append(' ', idText(ruling.key, 'the ruling key'));
    parts.push(heading(4, 'Ruling on the dispute', 'h-ruling'), definitionList([
      ['Released to the provider', percent != null
        ? meter('share released to the provider by the ruling', percent, { text: percent + ' %' }) : '—'],
      ['Back to the client', percent != null ? Math.round((100 - Number(percent)) * 100) / 100 + ' %' : '—'],
      ['Reason', ruling.reason],
      ['Ruled by', by],
      ['Ruled at', ruling.ruled_at],
    ]));
  }
  if (settled) {
    const currency = settled.currency ? ' ' + settled.currency : '';
    const pairs = [
      ['Settled by', settledBy(settled.reason)],
      ['Settled at', settled.settled_at],
      ['Released to the provider', settled.released_to_provider != null
        ? settled.released_to_provider + currency + ' (' + settled.release_percent + ' %)' : settled.release_percent + ' %'],
      ['Back to the client', settled.refunded_to_client != null ? settled.refunded_to_client + currency : '—'],
    ];
    if (settled.note) pairs.push(['Note', settled.note]);
    parts.push(heading(4, 'Settlement', 'h-settlement'), definitionList(pairs));
  }
  return parts;
}

function escrowSection(escrow, status, doc) {
  const s = section('Escrow', 'h-escrow');
  const settlement = settlementPart(status, doc);
  if (escrow.refused) {
    s.append(el('p', 'No escrow to show: ' + escrow.refused.message), ...settlement);
    return s;
  }
  const balances = Object.entries(escrow.balances || {}).map(([c, v]) => v + ' ' + c).join(', ');
  s.append(definitionList([
    ['Binding', escrow.binding],
    ['Status', el('strong', escrow.status)],
    ['Amount', escrow.amount ? escrow.amount + ' ' + (escrow.currency || '') : '—'],
    ['Held in escrow now', balances || 'nothing'],
  ]));
  s.append(...settlement);
  const transfers = escrow.transfers || [];
  s.append(transfers.length
    ? table('Ledger transfers of this agreement', ['Transfer', 'Kind', 'From', 'To', 'Amount', 'At'],
      transfers.map((t) => [el('span', t.transfer_id, 'mono'), t.kind, el('span', t.from, 'mono'),
        el('span', t.to, 'mono'), t.amount + ' ' + t.currency, t.at]))
    : el('p', 'No ledger transfer yet.'));
  const messages = escrow.messages || [];
  s.append(messages.length
    ? table('Payment messages (outbox) and their delivery attempts', ['Message', 'Kind', 'Destination', 'Status', 'Attempts', 'Next attempt', 'Last error', 'Delivered'],
      messages.map((m) => [el('span', m.webhook_id, 'mono'), m.kind, m.destination, m.status, m.attempts,
        m.next_attempt_at, m.last_error, m.delivered_at]))
    : el('p', 'No payment message was sent for this agreement.'));
  return s;
}

// The actions the caller may take now, as buttons and small forms that call the API. Which ones
// are shown follows the server's own answer (allowed_actions for the agreement's state) and the
// caller's roles in it; the server still decides, and a refusal is shown as the API wrote it.

import { agreementHash, api, contentDigest, signAgreementHash } from './api.js';
import { definitionList, el, heading, say, table } from './dom.js';

const REASONS = ['quality_below_agreed_slo', 'evaluator_error', 'evaluator_bias',
  'deliverable_mismatch', 'missing_evidence', 'procedural_violation'];

let formCount = 0;

/** The most characters of a deliverable the scoring form shows; the whole is a download. */
const PREVIEW_CHARS = 8000;

/** The download of the deliverable last shown, released when another replaces it. */
let deliverableUrl = null;

function field(labelText, input, hint) {
  const id = 'act-' + (++formCount);
  input.id = id;
  const wrap = el('div', null, 'field');
  const label = el('label', labelText);
  label.htmlFor = id;
  wrap.append(label, input);
  if (hint) {
    const h = el('p', hint, 'hint');
    h.id = id + '-hint';
    input.setAttribute('aria-describedby', h.id);
    wrap.append(h);
  }
  return wrap;
}

function input(type, attrs = {}) {
  const i = el(type === 'textarea' ? 'textarea' : type === 'select' ? 'select' : 'input');
  if (type !== 'textarea' && type !== 'select') i.type = type;
  for (const [k, v] of Object.entries(attrs)) i.setAttribute(k, v);
  return i;
}

function select(options) {
  const s = input('select');
  for (const o of options) s.append(el('option', o));
  return s;
}

/**
 * One action: a form whose submit button calls the API; the outcome goes to the panel's live
 * region, and a success reloads the page's data.
 */
function actionForm(ctx, name, buttonText, fields, send) {
  const form = el('form', null, 'action');
  form.dataset.action = name;
  form.noValidate = true;
  for (const f of fields) form.append(f);
  const button = el('button', buttonText);
  button.type = 'submit';
  form.append(button);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    button.disabled = true;
    say(ctx.outcome, 'Sending…', 'status');
    try {
      const answer = await send();
      const state = answer && (answer.state || (answer.agreement && answer.agreement.state));
      say(ctx.outcome, buttonText + ': done' + (state ? '; the agreement is now ' + state : '') + '.', 'ok');
      await ctx.reload(ctx.outcome.textContent);
    } catch (err) {
      say(ctx.outcome, buttonText + ' refused: ' + err.message);
      button.disabled = false;
    }
  });
  return form;
}

/**
 * Why the agreement's evaluators answer in their work queue rather than on the agreement (the
 * server refuses scores sent beside the queue: VerificationFlow.refuseBesideTheQueue), or null.
 */
function answersInTheQueue(doc) {
  const v = doc.verification || {};
  // As the server reads the terms: canary_tasks present means enabled unless it says otherwise.
  if (v.canary_tasks && v.canary_tasks.enabled !== false) return 'has canary tasks enabled';
  const count = v.evaluators && v.evaluators.count;
  if (count > 1) return 'is judged by a panel of ' + count + ' evaluators';
  return null;
}

/** The criteria of the dimensions the form scores: what each measures, its weight and level. */
function criteriaToScore(doc, dims) {
  const criteria = doc.quality_criteria || {};
  const box = el('div', null, 'criteria');
  box.append(table('The criteria you score', ['Dimension', 'What it measures', 'Weight', 'Service level'],
    dims.map((d) => [d.name, d.description, d.weight, d.slo ? d.slo.operator + ' ' + JSON.stringify(d.slo.value) : '—'])));
  box.append(el('p', 'The result passes at a composite of ' + (criteria.composite_threshold ?? '—')
    + ' (' + (criteria.composite_method || '—') + ').', 'hint'));
  return box;
}

/**
 * The work the evaluator scores, as the API gives it to the evaluator: its work queue (GET
 * /evaluator/tasks, what "asa evaluator tasks" reads), whose tasks name no agreement; the task of
 * this agreement is the one whose deliverable hashes, in this page, to the digest the agreement
 * recorded. Shown as text only: a preview of PREVIEW_CHARS characters, and the whole as a plain
 * text download.
 */
function workToScore(ctx) {
  const box = el('div', null, 'work');
  box.append(heading(4, 'The work to score', 'h-work'));
  // Not a live region: a screen reader would read the whole preview out when it arrives.
  const body = el('div');
  body.append(el('p', 'Reading your work queue…', 'hint'));
  box.append(body);
  fillWork(body, ctx.status.deliverable || {});
  return box;
}

async function fillWork(body, delivered) {
  let tasks;
  try {
    tasks = (await api('GET', '/evaluator/tasks')).tasks || [];
  } catch (e) {
    body.replaceChildren(el('p', 'Your work queue could not be read: ' + e.message, 'error'));
    return;
  }
  let task = null;
  for (const t of tasks) {
    const content = t && t.deliverable && t.deliverable.content;
    if (typeof content === 'string' && delivered.content_hash
        && (await contentDigest(content)) === delivered.content_hash) {
      task = t;
      break;
    }
  }
  if (!body.isConnected) return; // the page was redrawn meanwhile
  if (!task) {
    body.replaceChildren(el('p', 'Your work queue (GET /evaluator/tasks) holds no open task with this'
      + ' deliverable (' + (delivered.content_hash || 'no digest') + '): it was answered, its deadline'
      + ' passed, or it is delivered by URL and not fetched yet (reload to read the queue again).', 'hint'));
    return;
  }
  const content = task.deliverable.content;
  const shown = content.length > PREVIEW_CHARS ? content.slice(0, PREVIEW_CHARS) : content;
  const preview = el('pre', shown, 'deliverable');
  preview.tabIndex = 0; // a scrolling region must be reachable by keyboard
  preview.setAttribute('role', 'region');
  preview.setAttribute('aria-label', 'The deliverable' + (shown.length < content.length ? ', its first '
    + PREVIEW_CHARS + ' characters' : ''));
  if (deliverableUrl) URL.revokeObjectURL(deliverableUrl);
  // A text/plain download of the whole: never a page of the console's origin that could run.
  deliverableUrl = URL.createObjectURL(new Blob([content], { type: 'text/plain;charset=utf-8' }));
  const download = el('a', 'Download the whole deliverable (' + content.length + ' characters)', 'download');
  download.href = deliverableUrl;
  download.download = 'deliverable' + extension(task.deliverable.format);
  download.type = 'text/plain';
  body.replaceChildren(
    definitionList([
      ['Request', task.request && task.request.description],
      ['Format', task.deliverable.format],
      ['Content digest', el('span', delivered.content_hash + ' (recomputed in this page)', 'mono')],
      ['Answer due', task.deadline],
    ]),
    el('p', shown.length < content.length
      ? 'The first ' + PREVIEW_CHARS + ' of its ' + content.length + ' characters:'
      : 'The whole deliverable, ' + content.length + ' characters:', 'hint'),
    preview,
    el('p', null, 'hint'));
  body.lastChild.append(download);
}

/** A file name's extension for a deliverable's format; plain text for anything else. */
function extension(format) {
  return { markdown: '.md', json: '.json', csv: '.csv', text: '.txt' }[format] || '.txt';
}

/** The panel for one agreement: { id, path, envelope, status, doc, roles, operator, reload }. */
export function actionPanel(ctx) {
  const s = el('section', null, 'actions');
  s.setAttribute('aria-labelledby', 'h-actions');
  s.append(heading(3, 'Actions', 'h-actions'));
  const outcome = el('p', null, '');
  outcome.id = 'action-outcome';
  outcome.setAttribute('role', 'status');
  outcome.setAttribute('aria-live', 'polite');
  outcome.hidden = true;
  if (ctx.lastOutcome) say(outcome, ctx.lastOutcome, 'ok');
  const c = { ...ctx, outcome };
  const offered = new Set(ctx.envelope.allowed_actions || []);
  const has = (role) => ctx.roles.includes(role);
  const forms = [];
  const post = (route, body) => api('POST', ctx.path + route, body);

  if (offered.has('sign')) {
    for (const role of ['client', 'provider']) {
      if (has(role) && !(ctx.status.signatures || {})[role]) {
        forms.push(actionForm(c, 'sign', 'Sign as ' + role, [
          el('p', 'Checks that the terms shown hash to ' + ctx.envelope.agreement_hash
            + ', then signs that hash with your key, in this page.', 'hint')],
        async () => {
          // Sign only the terms this page shows: their hash, computed here, must be the server's.
          const local = await agreementHash(ctx.doc);
          if (local !== ctx.envelope.agreement_hash) {
            throw new Error('the terms shown hash to ' + local + ', not to the agreement_hash the server'
              + ' gave (' + ctx.envelope.agreement_hash + '); nothing was signed');
          }
          return post('/sign', {
            party: role,
            signature: { scheme: 'ed25519', value: await signAgreementHash(local) },
            agreement_hash: local,
          });
        }));
      }
    }
  }
  const payment = ctx.status.payment || {};
  if (has('client') && payment.status === 'unfunded') {
    if (payment.binding === 'x402') {
      forms.push(el('p', 'This escrow is funded with an x402 payment from an x402 client; see docs/escrow.md.', 'hint'));
    } else {
      forms.push(actionForm(c, 'fund', 'Fund the escrow', [
        el('p', 'Holds ' + payment.amount + ' ' + payment.currency + ' in escrow (' + payment.binding + ').', 'hint')],
      () => post('/fund', {})));
    }
  }
  if (offered.has('stake_collateral') && has('provider')) {
    const bond = ctx.status.collateral || {};
    forms.push(actionForm(c, 'stake_collateral', 'Stake the collateral', [
      el('p', 'Holds ' + bond.amount + ' ' + bond.currency + ' as your collateral beside the escrow,'
        + ' slashed to the client on the events the terms name; delivery waits for it.', 'hint')],
    () => post('/collateral', {})));
  }
  if (offered.has('deliver') && has('provider')) {
    const content = input('textarea', { rows: '6', required: '' });
    const format = select([(ctx.doc.service || {}).deliverable_format || 'markdown', 'text', 'json']);
    forms.push(actionForm(c, 'deliver', 'Deliver', [
      field('The work to deliver', content, 'Sent as the deliverable\'s content; its digest is kept in the record.'),
      field('Format', format)],
    () => post('/deliver', { content: content.value, format: format.value })));
  }
  const queueOnly = answersInTheQueue(ctx.doc);
  if (offered.has('verify') && has('evaluator') && queueOnly) {
    forms.push(el('p', 'This agreement ' + queueOnly + ', so its evaluators answer through their work'
      + ' queue, not here: "asa evaluator tasks" lists your task with its deliverable (GET /evaluator/tasks),'
      + ' "asa evaluator submit" answers it.', 'hint'));
  } else if (offered.has('verify') && has('evaluator')) {
    const dims = ((ctx.doc.quality_criteria || {}).dimensions || []).filter((d) => d.metric !== 'boolean');
    const inputs = dims.map((d) => ({
      name: d.name,
      score: input('number', { min: '0', max: '100', step: '0.1', required: '' }),
      evidence: input('text', { required: '' }),
    }));
    const confidence = input('number', { min: '0', max: '1', step: '0.01', value: '0.8' });
    const fields = [workToScore(ctx), criteriaToScore(ctx.doc, dims)];
    for (const i of inputs) {
      fields.push(field('Score for ' + i.name + ' (0-100)', i.score), field('Evidence for ' + i.name, i.evidence));
    }
    fields.push(field('Confidence (0-1)', confidence));
    forms.push(actionForm(c, 'verify', 'Submit the evaluation', fields, () => post('/verify', {
      evaluator_result: {
        dimensions: inputs.map((i) => ({ name: i.name, score: Number(i.score.value), evidence: i.evidence.value })),
        confidence: Number(confidence.value),
      },
    })));
  } else if (offered.has('verify') && (has('client') || has('provider'))
      && (ctx.status.judged_by || {}).builtin) {
    // Only where the terms make the built-in evaluator the judge; elsewhere the server refuses.
    forms.push(actionForm(c, 'verify', 'Ask the server\'s evaluator to verify', [], () => post('/verify')));
  }
  if (offered.has('challenge') && (has('client') || has('provider'))) {
    const reason = select(REASONS);
    const role = has('client') ? 'client' : 'provider';
    forms.push(actionForm(c, 'challenge', 'Challenge the result', [field('Reason', reason)],
      () => post('/challenge', { party: role, reason_code: reason.value })));
  }
  if (offered.has('close') && ctx.roles.length) {
    forms.push(actionForm(c, 'close', 'Close the agreement', [], () => post('/close')));
  }
  if (offered.has('rule') && ctx.operator && ctx.roles.length === 0) {
    const percent = input('number', { min: '0', max: '100', step: '0.01', required: '' });
    const reason = input('textarea', { rows: '3', required: '', maxlength: '2000' });
    forms.push(actionForm(c, 'rule', 'Rule on the dispute', [
      field('Share released to the provider (%)', percent),
      field('Reason, kept in the record', reason)],
    () => post('/ruling', { release_percent: Number(percent.value), reason: reason.value })));
  }
  if (forms.length === 0) {
    s.append(el('p', 'Nothing for you to do now (the server offers: '
      + ([...offered].join(', ') || 'nothing') + ').'));
  }
  s.append(...forms, outcome);
  return s;
}

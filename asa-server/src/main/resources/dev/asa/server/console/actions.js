// The actions the caller may take now, as buttons and small forms that call the API. Which ones
// are shown follows the server's own answer (allowed_actions for the agreement's state) and the
// caller's roles in it; the server still decides, and a refusal is shown as the API wrote it.

import { agreementHash, api, signAgreementHash } from './api.js';
import { el, heading, say } from './dom.js';

const REASONS = ['quality_below_agreed_slo', 'evaluator_error', 'evaluator_bias',
  'deliverable_mismatch', 'missing_evidence', 'procedural_violation'];

let formCount = 0;

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
  if (offered.has('verify') && has('evaluator')) {
    const dims = ((ctx.doc.quality_criteria || {}).dimensions || []).filter((d) => d.metric !== 'boolean');
    const inputs = dims.map((d) => ({
      name: d.name,
      score: input('number', { min: '0', max: '100', step: '0.1', required: '' }),
      evidence: input('text', { required: '' }),
    }));
    const confidence = input('number', { min: '0', max: '1', step: '0.01', value: '0.8' });
    const fields = [];
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

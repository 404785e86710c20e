// The evaluator registry (GET /evaluators, GET /evaluators/{key}): each evaluator's standing,
// whether it is qualified and why not, its canary pass rate, calibration and rotation counts.
// What names parties or times the work (history, rotation by provider, calibration by dimension)
// the server shows only to the evaluator itself and the operator; others are told so.

import { api } from './api.js';
import { $, definitionList, el, heading, meter, say, table } from './dom.js';

function percent(rate) {
  return rate === null || rate === undefined ? '—' : Math.round(rate * 1000) / 10 + ' %';
}

export async function showEvaluators() {
  const body = $('evaluators-body');
  const error = $('evaluators-error');
  say(error, null);
  body.replaceChildren(el('p', 'Loading…'));
  const type = $('ev-service-type').value.trim();
  let list;
  try {
    list = await api('GET', '/evaluators?limit=500' + (type ? '&service_type=' + encodeURIComponent(type) : ''));
  } catch (e) {
    body.replaceChildren();
    say(error, 'The server refused the registry: ' + e.message);
    return;
  }
  const evaluators = list.evaluators || [];
  body.replaceChildren(el('p', evaluators.length + ' evaluator(s) registered'
    + (type ? ' for ' + type : '') + (list.next_cursor ? '; more on the server' : '') + '.'));
  body.append(table('Registered evaluators', ['Evaluator', 'Key', 'Service types', 'Standing', 'Qualified', 'Evaluations', 'Canary pass rate', 'Calibration deviation'],
    evaluators.map((e) => {
      const r = e.track_record || {};
      const link = el('a', e.display_name || (e.identity && e.identity.value) || e.key);
      link.href = '#/evaluators/' + encodeURIComponent(e.key);
      return [link, el('span', e.key, 'mono'), (e.service_types || []).join(', '),
        (e.standing || {}).status, e.qualified ? 'yes' : 'no', r.evaluations,
        r.canary_pass_rate === null || r.canary_pass_rate === undefined ? 'no canary yet'
          : meter('canary pass rate of ' + (e.display_name || e.key), Math.round(r.canary_pass_rate * 100), { low: 90, optimum: 100, text: percent(r.canary_pass_rate) }),
        r.calibration_deviation ?? '—'];
    })));
}

export async function showEvaluator(key) {
  const body = $('evaluators-body');
  const error = $('evaluators-error');
  say(error, null);
  body.replaceChildren();
  let e;
  try {
    e = await api('GET', '/evaluators/' + encodeURIComponent(key));
  } catch (err) {
    say(error, 'The server refused: ' + err.message);
    return;
  }
  const r = e.track_record || {};
  body.append(heading(3, e.display_name || key, 'h-evaluator'));
  body.append(definitionList([
    ['Key', el('span', e.key, 'mono')],
    ['Identity', e.identity ? e.identity.scheme + ' ' + e.identity.value : '—'],
    ['Service types', (e.service_types || []).join(', ')],
    ['Standing', (e.standing || {}).status + ((e.standing || {}).note ? ': ' + e.standing.note : '')],
    ['Qualified', e.qualified ? 'yes' : 'no'],
    ['Registered', e.registered_at],
    ['Evaluations', r.evaluations],
    ['Canary tasks', r.canary_tasks != null ? r.canary_passes + ' of ' + r.canary_tasks + ' passed (' + percent(r.canary_pass_rate) + ')' : '—'],
    ['Calibration deviation', r.calibration_deviation ?? 'no calibration yet'],
  ]));
  if ((e.why || []).length) {
    const why = el('ul');
    for (const reason of e.why) why.append(el('li', reason));
    body.append(heading(4, 'Why it is not qualified', 'h-why'), why);
  }
  const calibration = r.calibration || {};
  const dims = Object.entries(calibration.dimensions || {});
  if (dims.length) {
    body.append(table('Calibration by dimension (points of deviation from the known or consensus score)', ['Dimension', 'Samples', 'Mean absolute deviation', 'Bias'],
      dims.map(([name, v]) => [name, v.samples, v.mean_absolute, v.bias])));
  }
  const onlyTheirs = 'Shown to the evaluator itself and the operator only: it names parties or times the evaluator\'s work.';
  const history = e.history || [];
  body.append(heading(4, 'Canary pass rate and calibration over time', 'h-history'));
  body.append(e.history === undefined ? el('p', onlyTheirs) : history.length
    ? table('The record as each publication showed it (every 10 changes), oldest first', ['At', 'Canary tasks', 'Canary pass rate', 'Calibration samples', 'Calibration deviation'],
      history.map((p) => {
        const rate = p.canary_tasks > 0 ? p.canary_passes / p.canary_tasks : null;
        return [p.at, p.canary_passes + ' of ' + p.canary_tasks,
          rate === null ? '—' : meter('canary pass rate at ' + p.at, Math.round(rate * 100), { low: 90, optimum: 100, text: percent(rate) }),
          p.calibration_samples, p.calibration_deviation ?? '—'];
      }))
    : el('p', 'No canary result or calibration yet.'));
  const streaks = Object.entries(r.consecutive_by_provider || {});
  body.append(r.consecutive_by_provider === undefined ? el('p', 'Rotation by provider: ' + onlyTheirs) : streaks.length
    ? table('Rotation: consecutive deliveries judged per provider', ['Provider', 'Consecutive deliveries'], streaks)
    : el('p', 'Rotation: no provider has had this evaluator on consecutive deliveries.'));
}

// ASA test reporter for node:test, run inside the sandbox. One line per event, like the Python
// harness: START/PASS/FAIL/ERROR name ms message, and COVERAGE percent over the deliverable's files.
//
// Tripwires (see Tripwire.java): this reporter runs in node's parent test-runner process, the tests
// and the deliverable in a child process. It reads the per-run key from __asa__/key and truncates
// the file as it loads, before the child starts; every line it writes carries an HMAC-SHA256 over a
// sequence number and its content, and an END line closes the run. The child has no copy of the
// key (it could still read this process's memory through /proc where the kernel's ptrace rules
// allow it: deliberate effort), and it can disarm node:assert or forge the events it sends this process: the control tests
// appended to the test file and the Java side's name check are there for that.
//
// Skips: a skip is not a pass. A test the file declares skipped or todo (test.skip, { skip },
// test.todo, { todo }, or t.skip()/t.todo() on the context only the test's own code holds) is
// reported as SKIP and counted neither way; node reports a failing todo test without failing the
// run, so it is a SKIP too. A test that skipped and still failed is a failure.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const KEY = '__asa__/key';
const key = Buffer.from(readFileSync(KEY, 'utf8').split('\n')[0], 'hex');
writeFileSync(KEY, '');
let seq = 0;
let results = 0;
const esc = (s) => String(s).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '').replace(/\n/g, '\\n');
const line = (...fields) => {
  const body = [String(seq++), ...fields.map(esc)].join('\t');
  if (['PASS', 'FAIL', 'ERROR', 'SKIP'].includes(fields[0])) results++;
  return createHmac('sha256', key).update(body, 'utf8').digest('hex') + '\t' + body + '\n';
};
const isTestFile = (p) => p.includes('/__asa__/') || (process.env.ASA_TEST_FILE && p.endsWith('/' + process.env.ASA_TEST_FILE));

const declared = (d) => d.todo !== undefined
  ? 'declared todo by the test file' + (typeof d.todo === 'string' ? ': ' + d.todo : '') + ': not counted'
  : 'skipped as the test file declares' + (typeof d.skip === 'string' ? ': ' + d.skip : '') + ': not counted';

export default async function* reporter(source) {
  for await (const event of source) {
    const d = event.data;
    switch (event.type) {
      case 'test:start':
        yield line('START', d.name);
        break;
      case 'test:pass':
        if (d.details?.type === 'suite') yield line('SUITE', d.name);
        else if (d.skip !== undefined || d.todo !== undefined) yield line('SKIP', d.name, Math.round(d.details?.duration_ms ?? 0), declared(d));
        else yield line('PASS', d.name, Math.round(d.details?.duration_ms ?? 0), '');
        break;
      case 'test:fail': {
        if (d.details?.type === 'suite') { yield line('SUITE', d.name); break; }
        if (d.todo !== undefined) { yield line('SKIP', d.name, Math.round(d.details?.duration_ms ?? 0), declared(d)); break; }
        const error = d.details?.error;
        const cause = error?.cause ?? error;
        const assertion = cause?.code === 'ERR_ASSERTION' || cause?.name === 'AssertionError';
        const message = (cause?.stack ?? cause?.message ?? String(cause)).slice(0, 4000);
        yield line(assertion ? 'FAIL' : 'ERROR', d.name, Math.round(d.details?.duration_ms ?? 0), message);
        break;
      }
      case 'test:coverage': {
        let total = 0, covered = 0;
        for (const f of d.summary.files) {
          if (isTestFile(f.path)) continue;
          total += f.totalLineCount;
          covered += f.coveredLineCount;
        }
        if (total > 0) yield line('COVERAGE', (100 * covered / total).toFixed(2));
        break;
      }
      default:
        break;
    }
  }
  yield line('END', results);
}

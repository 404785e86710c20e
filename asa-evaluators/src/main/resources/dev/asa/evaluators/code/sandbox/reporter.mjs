// ASA test reporter for node:test, run inside the sandbox. One line per event, like the Python
// harness: START/PASS/FAIL/ERROR name ms message, and COVERAGE percent over the deliverable's files.
const esc = (s) => String(s).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '').replace(/\n/g, '\\n');
const line = (...fields) => fields.map(esc).join('\t') + '\n';
const isTestFile = (p) => p.includes('/__asa__/') || (process.env.ASA_TEST_FILE && p.endsWith('/' + process.env.ASA_TEST_FILE));

export default async function* reporter(source) {
  for await (const event of source) {
    const d = event.data;
    switch (event.type) {
      case 'test:start':
        yield line('START', d.name);
        break;
      case 'test:pass':
        if (d.details?.type !== 'suite') yield line('PASS', d.name, Math.round(d.details?.duration_ms ?? 0), '');
        else yield line('SUITE', d.name);
        break;
      case 'test:fail': {
        if (d.details?.type === 'suite') { yield line('SUITE', d.name); break; }
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
}

// Drives `asa mcp` with the official MCP TypeScript SDK client, for OfficialMcpClientTest.
//
// Standard input: {"command": [...argv that starts `asa mcp` without --key], "keys": {"client",
// "provider", "evaluator"}}. Three MCP servers are started, one per party, each with its own key.
// They run the README's walk-through through tools only (create_agreement to CLOSED, the provider
// paid), a second agreement that negotiates, is judged from the evaluator's queue (a FAIL) and
// is challenged by the provider, one standalone verify_deliverable with progress, refused calls, and the resources
// and prompts. Standard output: one JSON report of every call and what it answered; the Java test
// judges it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const input = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => { text += chunk; });
  process.stdin.on('end', () => resolve(text));
}));

const report = { tools: {}, calls: [], progress: [], resources: {}, prompts: {} };

async function connect(party) {
  const [command, ...args] = input.command;
  const transport = new StdioClientTransport({
    command,
    args: [...args, '--key', input.keys[party]],
    stderr: 'inherit',
  });
  const client = new Client({ name: `asa-mcp-test-${party}`, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool, records the call and its result; the SDK itself checks structuredContent. */
async function call(parties, party, name, args, options = {}) {
  const result = await parties[party].callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    ...options,
  });
  report.calls.push({ party, tool: name, arguments: summarise(args), result });
  if (result.isError && !options.mayFail) {
    throw new Error(`${party} ${name} failed: ${JSON.stringify(result.content)}`);
  }
  return result;
}

/** Long texts shortened in the report. */
function summarise(args) {
  return JSON.parse(JSON.stringify(args, (k, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}...` : v)));
}

async function until(check, what, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const parties = {};
try {
  for (const party of ['client', 'provider', 'evaluator']) {
    parties[party] = await connect(party);
  }
  report.tools = (await parties.client.listTools()).tools;

  const ids = {};
  for (const party of Object.keys(parties)) {
    ids[party] = (await call(parties, party, 'whoami', {})).structuredContent.identity;
  }
  await call(parties, 'client', 'list_templates', {});

  // The README's walk-through, steps 3 to 9, through tools only.
  const created = await call(parties, 'client', 'create_agreement', {
    template: 'general',
    description: 'Summarise recent work on federated learning privacy',
    amount: '10.00',
    currency: 'USD',
    provider: ids.provider,
    evaluator: ids.evaluator,
    challenge_window_seconds: 2,
  });
  const id = created.structuredContent.agreement_id;
  report.agreement_id = id;

  // A refused call: the provider may not fund the client's escrow.
  report.refused = await call(parties, 'provider', 'fund_escrow', { agreement_id: id }, { mayFail: true });

  for (const party of ['client', 'provider']) {
    const read = await call(parties, party, 'get_agreement', { agreement_id: id });
    await call(parties, party, 'sign_agreement', {
      agreement_id: id,
      agreement_hash: read.structuredContent.agreement_hash,
    });
  }
  await call(parties, 'client', 'fund_escrow', { agreement_id: id });
  await call(parties, 'provider', 'deliver', {
    agreement_id: id,
    content: '# Federated learning and privacy\n\nDifferential privacy bounds what a trained model reveals about any one record.\n',
    format: 'markdown',
  });
  await call(parties, 'evaluator', 'evaluator_tasks', {});
  await call(parties, 'evaluator', 'submit_evaluation', {
    agreement_id: id,
    scores: [
      { dimension: 'accuracy', score: 80, evidence: '3 of 3 spot-checked claims hold' },
      { dimension: 'completeness', score: 70, evidence: 'covers the main results' },
      { dimension: 'relevance', score: 80, evidence: 'on topic throughout' },
    ],
    confidence: 0.85,
  });
  await until(async () => {
    const status = await call(parties, 'client', 'agreement_status', { agreement_id: id });
    return status.structuredContent.state === 'CLOSED';
  }, 'the agreement to close');
  report.provider_status = (await call(parties, 'provider', 'agreement_status', { agreement_id: id })).structuredContent;
  report.events = (await call(parties, 'provider', 'agreement_events', { agreement_id: id })).structuredContent;
  report.listed = (await call(parties, 'client', 'list_agreements', { state: 'CLOSED' })).structuredContent;
  // Anyone may read an agent's reputation (issue 56); this agreement kept its result to its
  // parties, so the provider has no signals from it.
  report.reputation = (await call(parties, 'client', 'reputation', { scheme: 'api_key', value: 'nobody' })).structuredContent;

  // A second agreement: the provider asks for more, the client accepts, the evaluator reads and
  // answers its queue (a FAIL), and the provider challenges the verdict inside the window.
  const second = (await call(parties, 'client', 'create_agreement', {
    template: 'general',
    description: 'List three open problems in federated learning',
    amount: '10.00',
    currency: 'USD',
    provider: ids.provider,
    evaluator: ids.evaluator,
    challenge_window_seconds: 600,
  })).structuredContent.agreement_id;
  report.second_id = second;
  await call(parties, 'provider', 'negotiate', {
    agreement_id: second,
    changes: { 'escrow.payment.amount': '11.00' },
    rationale: 'market_rate_alignment',
  });
  await call(parties, 'client', 'negotiate', { agreement_id: second, accept: true });
  for (const party of ['client', 'provider']) {
    await call(parties, party, 'sign_agreement', { agreement_id: second });
  }
  await call(parties, 'client', 'fund_escrow', { agreement_id: second });
  await call(parties, 'provider', 'deliver', { agreement_id: second, content: '# Open problems\n\n1. Privacy.\n', format: 'markdown' });
  const tasks = (await call(parties, 'evaluator', 'evaluator_tasks', {})).structuredContent.tasks;
  // Real work and canaries look alike; this one is known by what it asks for.
  const task = tasks.find((t) => t.request.description === 'List three open problems in federated learning');
  await call(parties, 'evaluator', 'submit_task_result', {
    task_id: task.task_id,
    scores: task.dimensions.map((d) => (d === 'timeliness'
      ? { dimension: d, score: 100, evidence: 'delivered well before the deadline' }
      : { dimension: d, score: 40, evidence: 'only one problem of three, unexplained' })),
    confidence: 0.9,
  });
  const verdict = await until(async () => {
    const status = await call(parties, 'client', 'agreement_status', { agreement_id: second });
    return status.structuredContent.state === 'VERIFIED' && status.structuredContent.verification;
  }, 'the second agreement\'s verdict');
  report.second_verdict = verdict;
  report.challenged = (await call(parties, 'provider', 'challenge', {
    agreement_id: second,
    reason_code: 'evaluator_error',
    reason: 'the request asked for a list, and the list is there',
  })).structuredContent;

  // A standalone verification, followed with progress notifications.
  report.verified = (await call(parties, 'client', 'verify_deliverable', {
    content: '# Federated learning and privacy\n\nDifferential privacy bounds what a trained model reveals about any one record.\n',
    request: 'Summarise recent work on federated learning privacy',
    format: 'markdown',
    depth: 'semantic',
  }, {
    timeout: 300_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => report.progress.push(p),
  })).structuredContent;

  report.resources.list = (await parties.client.listResources()).resources.map((r) => r.uri);
  report.resources.templates = (await parties.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  report.resources.agreement = JSON.parse((await parties.client.readResource({ uri: `asa://agreements/${id}` })).contents[0].text);
  report.resources.events = JSON.parse((await parties.client.readResource({ uri: `asa://agreements/${id}/events` })).contents[0].text);
  report.prompts.list = (await parties.client.listPrompts()).prompts.map((p) => p.name);
  report.prompts.hire = await parties.client.getPrompt({ name: 'hire_a_provider', arguments: { task: 'a summary', provider: ids.provider, budget: '10.00 USD' } });
} catch (e) {
  report.failure = String(e && e.stack ? e.stack : e);
} finally {
  for (const client of Object.values(parties)) {
    await client.close();
  }
}
process.stdout.write(JSON.stringify(report));

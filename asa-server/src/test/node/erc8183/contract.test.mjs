// Every transition ERC-8183 (draft of 2026-02-25) allows, and the ones it refuses, on a real local
// EVM (a hardhat node), with the project's AgenticCommerce contract and a test ERC-20.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContractFactory, JsonRpcProvider, ZeroAddress, encodeBytes32String } from 'ethers';
import { compile, startNode } from './chain.mjs';

const Status = { Open: 0n, Funded: 1n, Submitted: 2n, Completed: 3n, Rejected: 4n, Expired: 5n };
const BUDGET = 10_000_000n; // 10.000000 of a 6-decimal token
const DELIVERABLE = encodeBytes32String('sha256 of the deliverable');
const REASON = encodeBytes32String('sha256 of the evaluation');

let node, rpc, client, provider, evaluator, stranger, token, acp;

/** The latest block's time, asked of the node itself (ethers caches "latest" between polls). */
async function now() {
  return BigInt((await rpc.send('eth_getBlockByNumber', ['latest', false])).timestamp);
}

async function travel(seconds) {
  await rpc.send('evm_increaseTime', [Number(seconds)]);
  await rpc.send('evm_mine', []);
}

/** That the call reverts with the contract's custom error {@code error}. */
async function reverts(promise, error) {
  await assert.rejects(promise, (e) => {
    const data = e.data ?? e.error?.data?.data ?? e.info?.error?.data;
    const parsed = data ? acp.interface.parseError(data) : null;
    assert.equal(parsed?.name ?? String(e.shortMessage ?? e.message), error);
    return true;
  });
}

async function balance(who) {
  return token.balanceOf(await who.getAddress());
}

/** A job from client to provider, judged by evaluator, an hour long; its budget set if asked. */
async function open({ budget = BUDGET, withProvider = true } = {}) {
  const expiredAt = (await now()) + 3600n;
  const tx = await acp.connect(client).createJob(
    withProvider ? await provider.getAddress() : ZeroAddress,
    await evaluator.getAddress(),
    expiredAt,
    'ASA agreement asa-test-1',
    ZeroAddress,
  );
  await tx.wait();
  const id = await acp.jobCount();
  if (budget !== null && withProvider) {
    await (await acp.connect(provider).setBudget(id, budget)).wait();
  }
  return id;
}

async function funded() {
  const id = await open();
  await (await acp.connect(client).fund(id, BUDGET)).wait();
  return id;
}

async function submitted() {
  const id = await funded();
  await (await acp.connect(provider).submit(id, DELIVERABLE)).wait();
  return id;
}

async function status(id) {
  return (await acp.getJob(id)).status;
}

before(async () => {
  const compiled = compile();
  node = await startNode();
  rpc = new JsonRpcProvider(node.url, undefined, { polling: true, pollingInterval: 50 });
  // After evm_increaseTime, hardhat estimates gas on a pending block with the old time, so a call
  // that is valid now "reverts" in the estimate. Every transaction goes out with a fixed gas limit
  // instead, and a revert comes from the transaction itself.
  rpc.estimateGas = async () => 10_000_000n;
  [client, provider, evaluator, stranger] = await Promise.all([0, 1, 2, 3].map((i) => rpc.getSigner(i)));
  token = await new ContractFactory(compiled.TestToken.abi, compiled.TestToken.bytecode, client).deploy();
  await token.waitForDeployment();
  acp = await new ContractFactory(compiled.AgenticCommerce.abi, compiled.AgenticCommerce.bytecode, client).deploy(
    await token.getAddress(),
  );
  await acp.waitForDeployment();
  await (await token.mint(await client.getAddress(), 1_000n * BUDGET)).wait();
  await (await token.connect(client).approve(await acp.getAddress(), 1_000n * BUDGET)).wait();
});

after(() => node?.stop());

describe('allowed transitions', () => {
  it('Open -> Funded -> Submitted -> Completed pays the provider', async () => {
    const before = await balance(provider);
    const id = await submitted();
    assert.equal(await status(id), Status.Submitted);
    await (await acp.connect(evaluator).complete(id, REASON)).wait();
    assert.equal(await status(id), Status.Completed);
    assert.equal((await balance(provider)) - before, BUDGET);
  });

  it('Open -> Rejected by the client moves nothing', async () => {
    const before = await balance(client);
    const id = await open();
    await (await acp.connect(client).reject(id, REASON)).wait();
    assert.equal(await status(id), Status.Rejected);
    assert.equal(await balance(client), before);
  });

  it('Funded -> Rejected by the evaluator refunds the client', async () => {
    const before = await balance(client);
    const id = await funded();
    await (await acp.connect(evaluator).reject(id, REASON)).wait();
    assert.equal(await status(id), Status.Rejected);
    assert.equal(await balance(client), before);
  });

  it('Submitted -> Rejected by the evaluator refunds the client', async () => {
    const before = await balance(client);
    const id = await submitted();
    await (await acp.connect(evaluator).reject(id, REASON)).wait();
    assert.equal(await status(id), Status.Rejected);
    assert.equal(await balance(client), before);
  });

  it('Funded and Submitted -> Expired by anyone after expiredAt refunds the client, once', async () => {
    const before = await balance(client);
    const f = await funded();
    const s = await submitted();
    await reverts(acp.connect(stranger).claimRefund(f), 'NotExpired');
    await travel(3601);
    await (await acp.connect(stranger).claimRefund(f)).wait();
    await (await acp.connect(stranger).claimRefund(s)).wait();
    assert.equal(await status(f), Status.Expired);
    assert.equal(await status(s), Status.Expired);
    assert.equal(await balance(client), before);
    await (await acp.connect(stranger).claimRefund(s)).wait(); // a retry: nothing more moves
    assert.equal(await balance(client), before);
  });

  it('a provider set after creation, and a budget set by the client', async () => {
    const id = await open({ withProvider: false });
    await reverts(acp.connect(client).fund(id, 0n), 'InvalidArgument');
    await (await acp.connect(client).setProvider(id, await provider.getAddress())).wait();
    await (await acp.connect(client).setBudget(id, BUDGET)).wait();
    await (await acp.connect(client).fund(id, BUDGET)).wait();
    assert.equal(await status(id), Status.Funded);
  });
});

describe('refused', () => {
  beforeEach(async () => {
    await rpc.send('evm_mine', []);
  });

  it('createJob without an evaluator, with a past expiry, or with a hook', async () => {
    const later = (await now()) + 3600n;
    const p = await provider.getAddress();
    const e = await evaluator.getAddress();
    await reverts(acp.createJob(p, ZeroAddress, later, 'x', ZeroAddress), 'InvalidArgument');
    await reverts(acp.createJob(p, e, await now(), 'x', ZeroAddress), 'InvalidArgument');
    await reverts(acp.createJob(p, e, later, 'x', await stranger.getAddress()), 'InvalidArgument');
  });

  it('setProvider by another, twice, or to zero', async () => {
    const id = await open({ withProvider: false });
    await reverts(acp.connect(stranger).setProvider(id, await stranger.getAddress()), 'NotAllowed');
    await reverts(acp.connect(client).setProvider(id, ZeroAddress), 'InvalidArgument');
    await (await acp.connect(client).setProvider(id, await provider.getAddress())).wait();
    await reverts(acp.connect(client).setProvider(id, await stranger.getAddress()), 'InvalidArgument');
  });

  it('setBudget by a stranger or the evaluator, or once funded', async () => {
    const id = await open();
    await reverts(acp.connect(stranger).setBudget(id, 1n), 'NotAllowed');
    await reverts(acp.connect(evaluator).setBudget(id, 1n), 'NotAllowed');
    await (await acp.connect(client).fund(id, BUDGET)).wait();
    await reverts(acp.connect(client).setBudget(id, 1n), 'WrongStatus');
  });

  it('fund by another than the client, without a budget, with a budget that moved, or twice', async () => {
    const id = await open({ budget: null });
    await reverts(acp.connect(client).fund(id, 0n), 'InvalidArgument');
    await (await acp.connect(provider).setBudget(id, BUDGET + 1n)).wait();
    await reverts(acp.connect(client).fund(id, BUDGET), 'BudgetMismatch');
    await reverts(acp.connect(provider).fund(id, BUDGET + 1n), 'NotAllowed');
    await (await acp.connect(client).fund(id, BUDGET + 1n)).wait();
    await reverts(acp.connect(client).fund(id, BUDGET + 1n), 'WrongStatus');
  });

  it('submit by another than the provider, or before funding', async () => {
    const open_ = await open();
    await reverts(acp.connect(provider).submit(open_, DELIVERABLE), 'WrongStatus');
    const id = await funded();
    await reverts(acp.connect(client).submit(id, DELIVERABLE), 'NotAllowed');
    await reverts(acp.connect(evaluator).submit(id, DELIVERABLE), 'NotAllowed');
  });

  it('complete by another than the evaluator, or before submission', async () => {
    const f = await funded();
    await reverts(acp.connect(evaluator).complete(f, REASON), 'WrongStatus');
    const id = await submitted();
    for (const who of [client, provider, stranger]) {
      await reverts(acp.connect(who).complete(id, REASON), 'NotAllowed');
    }
  });

  it('reject by the provider or a stranger; by the client once funded; by the evaluator while Open', async () => {
    const o = await open();
    await reverts(acp.connect(evaluator).reject(o, REASON), 'NotAllowed');
    await reverts(acp.connect(provider).reject(o, REASON), 'NotAllowed');
    const id = await submitted();
    for (const who of [client, provider, stranger]) {
      await reverts(acp.connect(who).reject(id, REASON), 'NotAllowed');
    }
  });

  it('nothing moves a job that has ended', async () => {
    const id = await submitted();
    await (await acp.connect(evaluator).complete(id, REASON)).wait();
    await reverts(acp.connect(evaluator).complete(id, REASON), 'WrongStatus');
    await reverts(acp.connect(evaluator).reject(id, REASON), 'WrongStatus');
    await reverts(acp.connect(provider).submit(id, DELIVERABLE), 'WrongStatus');
    await reverts(acp.connect(client).fund(id, BUDGET), 'WrongStatus');
    await travel(3601);
    await reverts(acp.connect(stranger).claimRefund(id), 'WrongStatus');
    await reverts(acp.connect(stranger).claimRefund(999_999n), 'NoSuchJob');
  });
});

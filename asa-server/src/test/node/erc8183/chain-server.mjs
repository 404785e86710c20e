// A hardhat node with the project's ERC-8183 job contract and a test ERC-20 deployed, for the
// server's end-to-end tests (Erc8183EndToEndTest). Prints one JSON line, {rpc, token, contract},
// then runs until its standard input closes.
import { ContractFactory, JsonRpcProvider } from 'ethers';
import { compile, startNode } from './chain.mjs';

const compiled = compile();
const node = await startNode();
const stop = () => {
  node.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();

const rpc = new JsonRpcProvider(node.url, undefined, { polling: true, pollingInterval: 50 });
const deployer = await rpc.getSigner(0);
const token = await new ContractFactory(compiled.TestToken.abi, compiled.TestToken.bytecode, deployer).deploy();
await token.waitForDeployment();
const acp = await new ContractFactory(
  compiled.AgenticCommerce.abi,
  compiled.AgenticCommerce.bytecode,
  deployer,
).deploy(await token.getAddress());
await acp.waitForDeployment();
rpc.destroy();
console.log(JSON.stringify({ rpc: node.url, token: await token.getAddress(), contract: await acp.getAddress() }));

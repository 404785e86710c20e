module.exports = { networks: { hardhat: { chainId: 31337 } } };

/**
 * `animal-store-mock/contract`: the contract-test harness as a function,
 * against a base URL or any fetch. docs/in-tests-and-the-browser.md.
 */
export { runContract, type ContractReport, type ContractTarget, type RunContractOptions } from '../contract-tests/run-contract.js';
export type { FetchFunction } from '../contract-tests/fetch-transport.js';

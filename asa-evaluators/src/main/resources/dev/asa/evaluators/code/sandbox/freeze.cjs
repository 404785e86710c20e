// ASA: loaded into every node process of a test run (NODE_OPTIONS --require) before the test file
// and the deliverable. One line of a deliverable could otherwise replace node:assert's functions
// (require('node:assert').deepStrictEqual = () => {}) and pass every test that uses them; the
// control tests check only a few of them. Frozen, the module's functions stay node's own: an
// assignment is ignored (or throws in strict code).
'use strict';
const assert = require('node:assert');
Object.freeze(assert.strict);
Object.freeze(assert);

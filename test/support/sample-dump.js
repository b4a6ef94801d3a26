'use strict';
// The committed sample dump (sample-dumps/shop) in a fake host's memory, for unit tests that
// change their own copy of it: its @.done.json edited, a chunk's view of the survey.
const { fakeHost } = require('./fake-host.js');
const chunkTable = require('../../lib/dump/chunk-table.js');

const SAMPLE = { '/d': 'sample-dumps/shop' };

// A fake host holding the sample dump at /d; options: more fakeHost options.
function sampleHost(options) { return fakeHost(Object.assign({ mount: SAMPLE }, options || {})); }

// Rewrites /d/@.done.json with edit(json) (which changes it in place).
function editDone(host, edit) {
  const done = JSON.parse(host.fs.text('/d/@.done.json'));
  edit(done);
  host.fs.put('/d/@.done.json', JSON.stringify(done));
}

// The target (table or partition) of a dump model.
function targetOf(model, table, partition) {
  return model.targets.find((t) => t.table === table && t.partition === (partition === undefined ? null : partition));
}

// Each chunk's state ('present', 'missing', …) of a target, in chunk order.
function statesOf(t) {
  const out = [];
  for (let i = 0; i < t.chunks.length; i++) out.push(chunkTable.stateOf(t.chunks, i));
  return out;
}

module.exports = { sampleHost, editDone, targetOf, statesOf, SAMPLE };

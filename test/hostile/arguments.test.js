'use strict';
// Issue 20, item 2: every member's arguments cross from the Shell (JS or Python) to the plugin as
// they are, or are refused naming the option: NaN, Infinity and numbers past 2^53 have no exact
// JSON or JavaScript form. Through the JS API, the Python API and the command line.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
let shopCopyDir = null; // the sample dump, copied once: never given to the Shell in place
const shopCopy = () => (shopCopyDir && require('fs').existsSync(shopCopyDir) ? shopCopyDir : (shopCopyDir = require('../support/shell').copyDump(SAMPLE_SHOP)));
const { mysqlsh, cli } = require('../support/shell');

describe('hostile 8: option values that cannot cross exactly are refused, naming the option', function () {
  beforeEach(function () { needs(this, ['shell']); });

  // python: mysqlsh --py prints a traceback of the user's own line for any exception; the
  // plugin's part is the message.
  function refused(r, pattern, python) {
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(pattern);
    expect(r.out).to.not.match(/Internal error|is not valid JSON|restore_js\/|\/lib\//);
    if (!python) expect(r.out).to.not.match(/Traceback/);
  }

  it('NaN, Infinity and a too large number from JavaScript', function () {
    for (const [value, why] of [['NaN', /nan is not a number the restore plugin can use/], ['Infinity', /inf is not a number/],
      ['-Infinity', /-inf is not a number/], ['2**60', /1\.152921504606847e\+18 is too large a number \(at most 9007199254740991\)/]]) {
      const r = mysqlsh(['--js', '-e', `restore.plan(${JSON.stringify(shopCopy())}, {latest: {"shop.orders": ${value}}})`]);
      refused(r, /Option latest\.shop\.orders: /);
      expect(r.out, value).to.match(why);
    }
  });

  it('NaN and a too large integer from Python', function () {
    for (const [value, why] of [['float("nan")', /nan is not a number/], ['2**60', /1152921504606846976 is too large a number/]]) {
      const r = mysqlsh(['--py', '-e', `restore.plan(${JSON.stringify(shopCopy())}, {"latest": {"shop.orders": ${value}}})`]);
      refused(r, /RuntimeError: Option latest\.shop\.orders: /, true);
      expect(r.out, value).to.match(why);
    }
  });

  it('the command line: a count that is not a whole number is the plugin\'s own clear error', function () {
    const r = cli(null, ['plan', shopCopy(), '--latest=shop.orders:NaN']);
    refused(r, /latest: "shop\.orders" needs a whole number of chunks \(0 = the table without data\), got "NaN"/);
  });

  it('-0 and exact numbers pass as they are', function () {
    const r = mysqlsh(['--js', '-e', `restore.plan(${JSON.stringify(shopCopy())}, {latest: {"shop.orders": -0, "shop.events": 9007199254740991}})`]);
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/^shop\.orders +0 +0 +0 +12$/m);
  });
});

describe('hostile 8: a selection that names what the dump does not hold is refused with the closest name', function () {
  beforeEach(function () { needs(this, ['shell']); });

  it('latest, includeTables and excludeTables naming an absent table; a partition the table lacks', function () {
    for (const [args, message] of [
      [['--latest=shop.order:2'], 'latest: `shop`.`order` names no table of the dump: did you mean shop.orders?'],
      [['--latest=shop.events.p2027:1'], 'latest: `shop`.`events`.`p2027` names no partition of shop.events: did you mean shop.events.p2026_01?'],
      [['--latest=shop.customers.p1:1'], 'latest: `shop`.`customers`.`p1` names no partition of shop.customers, which is not partitioned.'],
      [['--include-tables=shop.custmers'], 'includeTables: shop.custmers names no table of the dump: did you mean shop.customers?'],
      [['--exclude-tables=nowhere.at_all'], 'excludeTables: nowhere.at_all names no table of the dump (restore.inspect lists the tables).'],
    ]) {
      const r = cli(null, ['plan', shopCopy(), ...args]);
      expect(r.status, r.out).to.equal(1);
      expect(r.out).to.include(message).and.include('Nothing was changed.');
    }
    // A wildcard that matches nothing stays a warning.
    const w = cli(null, ['plan', shopCopy(), '--latest=shop.orders:2,other.*:1']);
    expect(w.status, w.out).to.equal(0);
    expect(w.out).to.include('WARNING: latest: `other`.* matches no table of the dump.');
  });

  it('a --latest value with two colons is refused showing the expected form, not read as a table "orders:1"', function () {
    const r = cli(null, ['plan', shopCopy(), '--latest=shop.orders:1:2']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.include('latest: "shop.orders:1:2" must be name:count, e.g. shop.events:3 or shop.*:1');
  });
});

'use strict';
// The Python companion (plugins/restore/restore_py) as a package of small modules, run in python3
// without mysqlsh: refusals cross as data {code, path, errno, reason, message}, never as a
// traceback; what a load view's @.done.json becomes is decided in lib/ (the substitution
// lib/dump/done-file.js gives is applied by Python as JavaScript applies it).
const { expect } = require('chai');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { zeroSizes, ZERO_SIZES } = require('../../lib/dump/done-file.js');

const { PY_DIR, HAVE_PYTHON, prelude } = require('../support/companion');

// Runs `body` (Python: `pkg` is the package, loaded by path as init.py loads it; `out` is printed
// as JSON) with the config home given.
function python(body, home) {
  const script = [
    ...prelude(),
    'out = None',
    body,
    'print(json.dumps(out))',
  ].join('\n');
  const r = spawnSync('python3', ['-B', '-c', script], { env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: home }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe('the Python companion, by job', function () {
  this.timeout(20000);
  let home;
  before(function () {
    if (!HAVE_PYTHON) this.skip();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'companion-'));
  });
  after(function () { if (home) fs.rmSync(home, { recursive: true, force: true }); });

  it('each module is small, knows no dump format, and only registration.py registers', function () {
    for (const name of fs.readdirSync(PY_DIR).filter((n) => n.endsWith('.py'))) {
      const text = fs.readFileSync(path.join(PY_DIR, name), 'utf8');
      expect(text.split('\n').length, name).to.be.below(250);
      expect(text, name).to.not.match(/chunkFileBytes|@\.done|@\.json|\.idx\b|\.tsv/);
      if (name !== 'registration.py') expect(text, name).to.not.include('add_extension_object_member');
    }
    // The JS side reads the answer's fields, never a Python exception's text.
    const host = fs.readFileSync(path.join(PY_DIR, '..', 'restore_js', 'host.js'), 'utf8');
    expect(host).to.not.match(/ValueError|Traceback|Errno/);
  });

  it('a refusal is an answer {code, path, errno, reason, message}; a defect is code "internal"', function () {
    const outside = path.join(home, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'kept'), 'mine');
    const got = python(`out = {
  "dirs": calls["makeDirs"](${JSON.stringify(path.join(outside, 'd'))}),
  "list": calls["list"](${JSON.stringify(path.join(outside, 'none'))}, {}),
  "view": calls["viewAdd"](${JSON.stringify(outside)}, "[]", []),
  "kept": calls["writeFiles"](json.dumps([[${JSON.stringify(path.join(outside, 'kept'))}, 0]]), ["x"], {}),
  "defect": calls["stat"]("not json"),
}`, home);
    expect(got.dirs).to.deep.equal([null, { code: 'outside-state-dir', path: path.join(outside, 'd'), errno: null,
      reason: `the restore plugin only creates directories inside its state directory ${fs.realpathSync(home)}/restore`,
      message: `${path.join(outside, 'd')}: the restore plugin only creates directories inside its state directory ${fs.realpathSync(home)}/restore` }]);
    expect(got.list[1]).to.include({ code: 'list-failed', errno: 2, reason: 'cannot list the directory (No such file or directory)' });
    expect(got.view[1]).to.include({ code: 'not-a-view', path: outside });
    expect(JSON.parse(got.kept[0])).to.deep.equal({ written: 0, skipped: [path.join(outside, 'kept')] });
    expect(fs.readFileSync(path.join(outside, 'kept'), 'utf8')).to.equal('mine');
    expect(got.defect[1].code).to.equal('internal');
    expect(got.defect[1].message).to.match(/^JSONDecodeError: .* \(\w+\.py, line \d+\)$/);
  });

  it('a listing joined (one text, float64 sizes) holds the same columns as the JSON answer', function () {
    const dir = path.join(home, 'listed');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    for (const [name, data] of [['s@t.json', '{}'], ['s@t.sql', 'x'], ['s@t@0.tsv.zst', 'abc'], ['\u00e9t\u00e9.json', '[]']]) {
      fs.writeFileSync(path.join(dir, name), data);
    }
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling'));
    for (let i = 0; i < 5000; i++) fs.writeFileSync(path.join(dir, `m${i}.json`), '');
    const got = python(`import array
opts = {"noSizeFor": [".sql"], "omitMatching": "@[0-9]+\\\\.", "countEnding": ".zst"}
plain = calls["list"](${JSON.stringify(dir)}, opts)[0]
j = calls["list"](${JSON.stringify(dir)}, dict(opts, joined=True))[0]
sizes = array.array("d")
sizes.frombytes(j[1])
out = {"plain": json.loads(plain), "names": j[0], "sizes": [None if s != s else s for s in sizes], "rest": json.loads(j[2])}`, home);
    const want = got.plain;
    expect(want.names).to.have.length(5005);
    expect(got.names.split('/')).to.deep.equal(want.names);
    expect(got.sizes).to.deep.equal(want.sizes);
    expect(got.rest).to.deep.equal({ dirs: want.dirs, errors: want.errors, omitted: 1, omittedEnding: 1 });
    expect(want.errors).to.have.length(1);
    // A name that is not UTF-8 cannot cross as text: the JSON answer then, as without joined.
    const odd = python(`import os
open(os.path.join(os.fsencode(${JSON.stringify(dir)}), b"odd\\xff.json"), "w").close()
opts = {"noSizeFor": [".sql"]}
j = calls["list"](${JSON.stringify(dir)}, dict(opts, joined=True))[0]
out = [j, calls["list"](${JSON.stringify(dir)}, opts)[0]]`, home);
    expect(odd[0]).to.be.a('string');
    expect(JSON.parse(odd[0])).to.deep.equal(JSON.parse(odd[1]));
    expect(JSON.parse(odd[0]).names).to.include('odd\udcff.json');
  });

  it('a bucket\'s refusal is an answer of code "bucket", before any request', function () {
    const outside = path.join(home, 'not-a-cache');
    fs.mkdirSync(outside, { recursive: true });
    const none = path.join(home, 'none');
    const got = python(`
noKeys = json.dumps({"s3BucketName": "b", "s3Profile": "p", "s3CredentialsFile": ${JSON.stringify(none)}, "s3ConfigFile": ${JSON.stringify(none)}})
os.environ.update(AWS_ACCESS_KEY_ID="k", AWS_SECRET_ACCESS_KEY="s")
out = {
  "list": calls["bucketList"](noKeys, "d/", "/"),
  "heads": calls["bucketHeads"](noKeys, json.dumps({"keys": ["d/x"], "n": 10})),
  "fetch": calls["bucketFetch"](json.dumps({"s3BucketName": "b", "s3EndpointOverride": "http://127.0.0.1:9"}),
                                json.dumps({"items": [["d/x", "x", 1]], "dir": ${JSON.stringify(outside)}, "threads": 1})),
}`, home);
    expect(got.list[0]).to.equal(null);
    expect(got.list[1]).to.include({ code: 'bucket', path: null });
    expect(got.list[1].message).to.match(/^No AWS access and secret keys were found for bucket b: looked in credentials file/);
    expect(got.heads[1]).to.deep.equal(got.list[1]);
    expect(got.fetch[1]).to.include({ code: 'bucket', path: outside,
      message: `${outside}: not a cache made by the restore plugin: nothing is fetched into it` });
    expect(fs.readdirSync(outside)).to.deep.equal([]);
  });

  it('a view\'s @.done.json spans are copied with lib/\'s substitution, as zeroSizes makes them', function () {
    const src = path.join(home, 'done.json');
    const text = '{\n  "chunkFileBytes": {\n    "s@t@0.tsv.zst": 123,\n    "a\\"b@1.tsv.zst" : 4.5e3,\n' +
      '    "s@t@@2.tsv.zst":0,\n    "x: 9": 77\n  },\n  "dataBytes": 10\n}';
    fs.writeFileSync(src, text);
    const view = path.join(home, 'restore', 'views', 'v');
    const spec = { source: src, bytes: text.length, ops: [['c', 0, 23], ['s', 23, text.length - 20], ['c', text.length - 20, text.length]], ...ZERO_SIZES };
    const got = python(`
calls["viewCreate"](${JSON.stringify(view)}, "{}")
calls["viewAdd"](${JSON.stringify(view)}, json.dumps([["@.done.json", 0]]), [""])
out = calls["viewAppendFrom"](${JSON.stringify(view)}, "@.done.json", ${JSON.stringify(JSON.stringify(spec))})`, home);
    expect(got[1]).to.equal(null);
    const want = text.slice(0, 23) + zeroSizes(text.slice(23, text.length - 20)) + text.slice(text.length - 20);
    expect(fs.readFileSync(path.join(view, '@.done.json'), 'utf8')).to.equal(want);
    expect(JSON.parse(want).chunkFileBytes).to.deep.equal({ 's@t@0.tsv.zst': 0, 'a"b@1.tsv.zst': 0, 's@t@@2.tsv.zst': 0, 'x: 9': 0 });
  });
});

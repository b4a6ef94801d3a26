'use strict';
// Where the bucket client finds keys, region and endpoint (plugins/restore/restore_py/bucket_keys.py
// resolve), as MySQL Shell does for util.loadDump: run with the system's python3 on real files, the
// companion package loaded by its path as init.py loads it.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { ROOT } = require('../support/real');

const PY = path.join(ROOT, 'plugins', 'restore', 'restore_py');

function resolve(options, env) {
  const clean = { PATH: process.env.PATH, HOME: env.HOME };
  const script = [
    'import importlib, importlib.util, json, os, sys',
    'spec = importlib.util.spec_from_file_location("companion", os.path.join(sys.argv[2], "__init__.py"), submodule_search_locations=[sys.argv[2]])',
    'pkg = importlib.util.module_from_spec(spec); sys.modules["companion"] = pkg; spec.loader.exec_module(pkg)',
    'keys = importlib.import_module("companion.bucket_keys")',
    'errors = importlib.import_module("companion.errors")',
    'try:\n print(json.dumps(keys.resolve(json.loads(sys.argv[1]))))',
    'except errors.Refusal as e:\n print(json.dumps({"error": e.message, "code": e.code}))',
  ].join('\n');
  const r = spawnSync('python3', ['-B', '-c', script, JSON.stringify(options), PY], { env: { ...clean, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe('a bucket\'s keys, region and endpoint, found as MySQL Shell finds them (bucket.py)', function () {
  let home;
  before(function () {
    if (spawnSync('python3', ['-V']).status !== 0) this.skip();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-aws-'));
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = f\n' +
      '[ops]\naws_access_key_id = OPSKEY\naws_secret_access_key = o\naws_session_token = T\n');
    fs.writeFileSync(path.join(home, '.aws', 'config'), '[default]\nregion = eu-west-1\n[profile conf]\nregion = ap-south-1\n' +
      'aws_access_key_id = CONFKEY\naws_secret_access_key = c\n[sso-session x]\nregion = nowhere\n');
  });
  after(function () { if (home) fs.rmSync(home, { recursive: true, force: true }); });

  it('keys: the environment, else the profile in the credentials file, else in the config file; s3Profile ignores the environment', function () {
    const envKeys = { HOME: home, AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'e' };
    expect(resolve({ s3BucketName: 'b' }, envKeys)).to.include({ accessKey: 'ENVKEY', keysFrom: 'environment' });
    expect(resolve({ s3BucketName: 'b', s3Profile: 'ops' }, envKeys)).to.include({ accessKey: 'OPSKEY', token: 'T' });
    expect(resolve({ s3BucketName: 'b' }, { HOME: home })).to.include({ accessKey: 'FILEKEY' });
    expect(resolve({ s3BucketName: 'b' }, { HOME: home, AWS_PROFILE: 'conf' })).to.include({ accessKey: 'CONFKEY', region: 'ap-south-1' });
    expect(resolve({ s3BucketName: 'b', s3Profile: 'none' }, envKeys).code).to.equal('bucket');
    expect(resolve({ s3BucketName: 'b', s3Profile: 'none' }, envKeys).error).to.match(/^No AWS access and secret keys were found for bucket b: looked in credentials file .*\(profile none\), config file/);
  });

  it('region: s3Region, else AWS_REGION, AWS_DEFAULT_REGION, else the config file\'s profile, else us-east-1', function () {
    const env = { HOME: home };
    expect(resolve({ s3BucketName: 'b', s3Region: 'us-west-2' }, { ...env, AWS_REGION: 'x' }).region).to.equal('us-west-2');
    expect(resolve({ s3BucketName: 'b' }, { ...env, AWS_DEFAULT_REGION: 'ca-central-1' }).region).to.equal('ca-central-1');
    expect(resolve({ s3BucketName: 'b' }, env).region).to.equal('eu-west-1');
    expect(resolve({ s3BucketName: 'b', s3ConfigFile: path.join(home, 'none') }, env).region).to.equal('us-east-1');
  });

  it('endpoint: s3EndpointOverride with path-style requests, else the bucket\'s virtual host at AWS', function () {
    const env = { HOME: home };
    expect(resolve({ s3BucketName: 'b', s3EndpointOverride: 'http://127.0.0.1:9000/' }, env))
      .to.include({ endpoint: 'http://127.0.0.1:9000', pathStyle: true });
    expect(resolve({ s3BucketName: 'acme-dumps' }, env)).to.include({ endpoint: 'https://acme-dumps.s3.eu-west-1.amazonaws.com', pathStyle: false });
    expect(resolve({ s3BucketName: 'Acme_Dumps' }, env)).to.include({ endpoint: 'https://s3.eu-west-1.amazonaws.com', pathStyle: true });
  });
});

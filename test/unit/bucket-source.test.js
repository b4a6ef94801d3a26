'use strict';
// A dump in a bucket named with util.loadDump's own options (lib/remote/bucket.js): the prefix
// and the refusals.
const { expect } = require('chai');
const bucket = require('../../lib/remote/bucket');
const { openDumpSource } = require('../../lib/remote/dump-source');
const { fakeHost } = require('../support/fake-host');

describe('a dump in a bucket: the source (lib/remote/bucket.js)', function () {
  it('takes the dump argument as the prefix, without slashes at either end', function () {
    const s3 = bucket.bucketOptions({ s3BucketName: 'acme', s3Region: 'eu-west-1', latest: 2 });
    expect(s3).to.deep.equal({ s3BucketName: 'acme', s3Region: 'eu-west-1' });
    const src = bucket.bucketSource('/nightly/2026-11-24/', s3);
    expect(src).to.include({ kind: 's3', url: 's3://acme/nightly/2026-11-24', name: '2026-11-24', prefix: 'nightly/2026-11-24' });
    expect(bucket.childBucketSource(bucket.bucketSource('nightly', s3), '2026-11-23')).to.include({
      url: 's3://acme/nightly/2026-11-23', prefix: 'nightly/2026-11-23', name: '2026-11-23' });
    expect(bucket.bucketSource('', s3)).to.include({ url: 's3://acme', prefix: '' });
    expect(bucket.bucketOptions({ latest: 2 })).to.equal(null);
  });

  it('refuses a URL as the prefix, an empty option and rsh, in sentences, each with its code', function () {
    const s3 = { s3BucketName: 'acme' };
    expect(() => bucket.bucketSource('s3://acme/nightly', s3)).to.throw(/the dump argument is the prefix in the bucket/)
      .with.property('code', 'REMOTE_ADDRESS_INVALID');
    expect(() => bucket.bucketOptions({ s3BucketName: 'acme', s3Profile: ' ' })).to.throw('Option s3Profile must be a non-empty string, not " ".')
      .with.property('data').that.deep.equals({ option: 's3Profile' });
    const host = fakeHost({});
    expect(() => openDumpSource(host, 'nightly', { s3BucketName: 'acme', rsh: 'ssh -p 2' }))
      .to.throw('Option rsh is for a dump on a backup host over ssh; this dump is in bucket acme.')
      .with.property('code', 'OPTION_CONFLICT');
  });
});

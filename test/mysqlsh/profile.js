'use strict';
// Which mysqlsh the stand-in pretends to be. Everything version-dependent is decided here
// (contract: plugin-runtime.md §0.1).

function parseVersion(v) {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(String(v));
  if (!m) throw new Error(`--mysqlsh-version expects X.Y.Z, got '${v}'`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

function atLeast(version, min) { return compareVersions(version, min) >= 0; }

function engineFor(version) {
  const [maj, min, patch] = parseVersion(version);
  if (maj === 8 && min === 0) return patch >= 41 ? 'GraalJS' : 'V8';
  if (maj === 8 && min === 4) return patch >= 4 ? 'GraalJS' : 'V8';
  if (maj === 8) return 'V8';
  if (maj === 9) return min >= 2 ? 'GraalJS' : 'V8';
  return 'GraalJS';
}

// profileName: 'v8' | 'graal' overrides the engine derived from the version (--profile).
function makeProfile(version = '8.4.0', profileName) {
  parseVersion(version);
  let engine = engineFor(version);
  if (profileName) {
    if (!/^(v8|graal)$/i.test(profileName)) throw new Error(`--profile expects v8 or graal, got '${profileName}'`);
    engine = /^v8$/i.test(profileName) ? 'V8' : 'GraalJS';
  }
  return {
    version,
    engine,
    // "Class.method: " prefixes on API errors exist up to 9.0.x.
    prefix: !atLeast(version, '9.1.0'),
    cli: atLeast(version, '8.0.24'),
    binary: atLeast(version, '8.0.29'),
    startsInJs: !atLeast(version, '8.4.0'),
    longVersion: `Ver ${version} for Linux on x86_64 - for MySQL ${version} (MySQL Community Server (GPL))`,
    atLeast: (min) => atLeast(version, min),
  };
}

module.exports = { makeProfile, parseVersion, compareVersions, atLeast };

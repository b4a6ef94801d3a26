// "Did you mean …?" for option and preset names: the known name nearest to a mistyped one.
function editDistance(a, b) {
  var prev = [];
  var cur = [];
  var i;
  var j;
  for (j = 0; j <= b.length; j++) prev[j] = j;
  for (i = 1; i <= a.length; i++) {
    cur = [i];
    for (j = 1; j <= b.length; j++) {
      var cost = a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[b.length];
}

// The candidate nearest to name (case-insensitively), or null when none is close enough to be
// a plausible typo (at most a third of the name's letters wrong, and at least two allowed).
function closestName(name, candidates) {
  var wanted = String(name).toLowerCase();
  var best = null;
  var bestDistance = Infinity;
  candidates.forEach(function (c) {
    var lower = c.toLowerCase();
    var d = lower === wanted ? 0 : editDistance(wanted, lower);
    if (d > 0 && (lower.indexOf(wanted) === 0 || wanted.indexOf(lower) === 0)) d = Math.min(d, 2);
    if (d < bestDistance) { best = c; bestDistance = d; }
  });
  return bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) ? best : null;
}

// " Did you mean 'x'?" or "".
function suggestion(name, candidates) {
  var c = closestName(name, candidates);
  return c === null ? '' : ' Did you mean \'' + c + '\'?';
}

module.exports = { closestName: closestName, suggestion: suggestion };

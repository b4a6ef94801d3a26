// The phases of a run as the report lists them: name, seconds, status ('running', 'ok', 'failed').
function phaseClock() {
  var phases = [];
  return {
    phases: phases,
    run: function (name, fn) {
      var p = { phase: name, seconds: 0, status: 'running' };
      var t0 = Date.now();
      phases.push(p);
      try {
        var r = fn();
        p.status = 'ok';
        return r;
      } catch (e) {
        p.status = 'failed';
        throw e;
      } finally {
        p.seconds = (Date.now() - t0) / 1000;
      }
    },
  };
}

module.exports = { phaseClock: phaseClock };

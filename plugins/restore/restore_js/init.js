// JS sub-plugin of the `restore` group: creates the `restore` global and restore._internal, which
// runs every member (./member-registry.js). The Python sub-plugin (../restore_py) loads after this
// file, adds the file access to restore._internal and registers the public members.
// Every require is at top level: relative requires only resolve while this file loads (the members'
// commands load at their first call: ./member-registry.js).
var makeHost = require('./host.js').makeHost;
var registerMembers = require('./member-registry.js').registerMembers;
var checkHost = require('../lib/core/host.js').checkHost;

var restore = shell.createExtensionObject();

// Register the global BEFORE adding members: until then the object's class is the generic
// "ExtensionObject", whose member help is shared process-wide with every other plugin's
// (the Shell's types_cpp.cc keys member definitions by class name).
shell.registerGlobal('restore', restore, {
  brief: 'Fast, safe and partial restores of MySQL Shell dumps.',
  details: [
    'The restore object wraps util.loadDump and util.dump* with presets, and adds what a DBA ' +
    'needs around a big restore: inspect a dump before loading it, load only the newest chunks ' +
    'of huge tables (partial imports), disable the InnoDB redo log for the load and always ' +
    'enable it again, tune the server for the load and revert it, and analyze tables afterwards.',
    'Typical use: restore.inspect("./dump") to see what a dump holds, restore.load("./dump", ' +
    '{preset: "fastest"}) to load it, restore.status() to check the server afterwards.',
    'Every function prints a readable report and returns nothing. With outputFormat: "json" (command line: ' +
    '--output-format=json) it prints one JSON document with the same facts instead; with outputFormat: "none" ' +
    'it prints nothing and returns the facts as a dictionary, for scripts. From the command line: ' +
    'mysqlsh root@host -- restore load ./dump --preset=fastest',
  ],
});

registerMembers(restore, function () { return checkHost(makeHost(restore)); });

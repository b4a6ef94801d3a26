package restore.graalhost;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import restore.graalhost.Sh.ShellError;

/** Entry point: `run.sh [URI] [--js] (-e CODE | -f FILE)`, or `run.sh --serve` (one call per stdin
 *  line, see serve()). See NOTES.md for the Shell rules followed. */
public final class Main {
  /** Where OUT and ERR go: the process's stdout/stderr, or (--serve) the current call's buffers. */
  static final class Target extends OutputStream {
    volatile OutputStream to;
    Target(OutputStream to) { this.to = to; }
    @Override public void write(int b) throws IOException { to.write(b); }
    @Override public void write(byte[] b, int off, int len) throws IOException { to.write(b, off, len); }
    @Override public void flush() throws IOException { to.flush(); }
  }
  static final Target OUT_TO = new Target(new FileOutputStream(FileDescriptor.out));
  static final Target ERR_TO = new Target(new FileOutputStream(FileDescriptor.err));
  static final PrintStream OUT = new PrintStream(OUT_TO, true, StandardCharsets.UTF_8);
  static final PrintStream ERR = new PrintStream(ERR_TO, true, StandardCharsets.UTF_8);
  /** The environment the plugin, the Python companion and the delegated mysqlsh see (--serve: per call). */
  static Map<String, String> env = System.getenv();
  static String getenv(String name) { return env.get(name); }
  static final String VERSION = "Ver 9.2.0 for Linux on x86_64 - for MySQL 9.2.0 (GraalJS test host, GraalJS 24.1.1; "
      + "util.loadDump/dump*/importTable delegated to a real mysqlsh)";

  static Engine engine;
  static Context main;
  static Context.Builder builder;
  static final List<Context> moduleContexts = new ArrayList<>();
  static final List<String> moduleFiles = new ArrayList<>();  // the file each module context ran
  static final Deque<String> scripts = new ArrayDeque<>();  // Current_script stack (polyglot_language.cc)
  static final Map<String, ExtensionObject> globals = new LinkedHashMap<>();
  static Session session;
  static String uri;
  static Python python;

  static void out(String s) { OUT.println(s); }

  public static void main(String[] argv) throws IOException {
    if (argv.length == 1 && argv[0].equals("--serve")) {
      serve();
      System.exit(0);
    }
    int rc = call(argv);
    OUT.flush();
    System.exit(rc);
  }

  /** One run as `run.sh ARGS` would do it; everything it made is closed afterwards. */
  static int call(String[] argv) {
    int rc;
    try {
      rc = run(argv);
    } catch (ShellError e) {
      ERR.println(e.getMessage() + " (" + e.type + (e.code != 0 ? " " + e.code : "") + ")");
      rc = 1;
    }
    if (python != null) python.close();
    if (session != null) try { session.conn.close(); } catch (Exception e) { }
    if (main != null) try { main.leave(); } catch (RuntimeException e) { }
    for (Context c : moduleContexts) close(c);
    if (main != null) close(main);
    python = null; session = null; uri = null; main = null;
    moduleContexts.clear(); scripts.clear(); globals.clear();
    return rc;
  }

  static void close(Context c) {
    try { c.close(); } catch (RuntimeException e) { try { c.close(true); } catch (RuntimeException e2) { } }
  }

  /** --serve: the test's calls in one JVM (a JVM start and a cold GraalJS cost ~2 s per call). Each
   *  stdin line is a call, {"argv": [...], "env": {NAME: value}} (env: added to this process's), run
   *  exactly as a fresh process would: a new main context, a new context per module file, the plugins
   *  loaded again, a new Python companion. Only the engine (parsed code) and the JVM are kept, as
   *  one Shell keeps its engine for every context. Each answer is one stdout line:
   *  {"rc", "out", "err", "moduleFiles": the file of each module context made}. */
  static void serve() throws IOException {
    PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(ERR);  // nothing else may write on the answer stream
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      Map<String, Object> req = Sh.castMap(Json.parse(line));
      List<String> argv = new ArrayList<>();
      for (Object a : (List<?>) req.get("argv")) argv.add(String.valueOf(a));
      Map<String, String> e = new HashMap<>(System.getenv());
      Object add = req.get("env");
      if (add instanceof Map) for (Map.Entry<?, ?> x : ((Map<?, ?>) add).entrySet()) e.put(String.valueOf(x.getKey()), String.valueOf(x.getValue()));
      env = e;
      ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
      OUT_TO.to = out;
      ERR_TO.to = err;
      int rc;
      List<Object> files;
      try {
        try {
          rc = call(argv.toArray(new String[0]));
        } catch (RuntimeException x) {
          ERR.println("graal-host: " + x);
          rc = 1;
        }
        files = new ArrayList<Object>(moduleFiles);
        moduleFiles.clear();
        OUT.flush();
        ERR.flush();
      } finally {
        OUT_TO.to = new FileOutputStream(FileDescriptor.out);
        ERR_TO.to = new FileOutputStream(FileDescriptor.err);
      }
      TreeMap<String, Object> answer = new TreeMap<>();
      answer.put("rc", (long) rc);
      answer.put("out", out.toString(StandardCharsets.UTF_8));
      answer.put("err", err.toString(StandardCharsets.UTF_8));
      answer.put("moduleFiles", files);
      answers.println(Json.write(answer, false));
    }
  }

  static int run(String[] argv) {
    String code = null, file = null;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (a.equals("--js") || a.equals("--javascript")) continue;
      if (a.equals("-e") || a.equals("--execute")) code = argv[++i];
      else if (a.startsWith("--execute=")) code = a.substring(10);
      else if (a.equals("-f") || a.equals("--file")) file = argv[++i];
      else if (a.startsWith("-")) { ERR.println("graal-host: unsupported option " + a); return 10; }
      else if (uri == null && code == null && file == null) uri = a;
      else rest.add(a);
    }
    String cwd = System.getProperty("user.dir");
    String runDir = file != null ? Paths.get(file).toAbsolutePath().normalize().getParent().toString() : cwd;

    // One engine shared by every context (polyglot_language.cc init_context_builder:
    // m_common_context->engine(), allow_all_access false, IO allowed by shell_javascript.cc).
    if (engine == null) engine = Engine.newBuilder("js").option("engine.WarnInterpreterOnly", "false").out(OUT).err(ERR).build();
    builder = Context.newBuilder("js").engine(engine).allowAllAccess(false)
        .allowIO(IOAccess.newBuilder().fileSystem(org.graalvm.polyglot.io.FileSystem.newReadOnlyFileSystem(
            org.graalvm.polyglot.io.FileSystem.newDefaultFileSystem())).build())
        .currentWorkingDirectory(Paths.get(runDir))
        .out(OUT).err(ERR);
    main = builder.build();
    main.enter();
    Sh.init(main);
    scripts.push(Paths.get(cwd, "mysqlsh").toString());
    installGlobals();
    main.eval(Source.newBuilder("js", resource("host-core.js"), "(internal)/host-core.js").buildLiteral());

    loadPlugins();

    if (uri != null) {
      session = new Session(uri);
      main.getBindings("js").putMember("session", session);  // set_global: main context only
    }

    try {
      if (code != null) {
        scripts.push(Paths.get(cwd, "(command line)").toString());
        main.eval(Source.newBuilder("js", code, "(command line)").buildLiteral());
      } else if (file != null) {
        Path p = Paths.get(file).toAbsolutePath().normalize();
        scripts.push(p.toString());
        main.eval(Source.newBuilder("js", Files.readString(p), p.toString()).build());
      }
    } catch (PolyglotException pe) {
      if (pe.isExit()) return pe.getExitStatus();
      ShellError e = Sh.fromPolyglot(pe);
      String msg = e.getMessage();
      if (!"ScriptingError".equals(e.type)) msg += " (" + e.type + (e.code != 0 ? " " + e.code : "") + ")";
      ERR.println(msg);
      return 1;
    } catch (IOException e) {
      ERR.println(e.getMessage());
      return 1;
    }
    return 0;
  }

  static String resource(String name) {
    try (InputStream in = Main.class.getResourceAsStream("/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // ------------------------------------------------------------------ modules
  /** shell_javascript.cc Shell_javascript::load_module: the file in a brand-new context whose
   *  bindings are a copy of the main context's global members (polyglot_language.cc
   *  copy_global_context), wrapped as (function(m){(function(exports,module,__filename,__dirname){...})}). */
  static void loadModule(String path, Value module) {
    scripts.push(path);
    try {
      String source;
      try {
        source = Files.readString(Paths.get(path), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new ShellError("RuntimeError", "Failed to open '" + path + "'", 0);
      }
      String code = "(function(m){(function(exports,module,__filename,__dirname){" + source
          + "})(m.exports,m,m.__filename,m.__dirname)});";
      Context ctx = builder.build();
      moduleContexts.add(ctx);
      moduleFiles.add(path);
      Value bindings = ctx.getBindings("js");
      Value mainGlobals = main.getBindings("js");
      for (String k : mainGlobals.getMemberKeys()) bindings.putMember(k, mainGlobals.getMember(k));
      Value fn;
      try {
        fn = ctx.eval(Source.newBuilder("js", code, path).buildLiteral());
      } catch (PolyglotException pe) {
        throw new ShellError("RuntimeError", "Failed to parse '" + path + "': " + pe.getMessage(), 0);
      }
      fn.execute(module);
    } finally {
      scripts.pop();
    }
  }

  /** mysql_shell.cc Mysql_shell::get_plugins: dirs only, dot-names skipped, init.js + init.py
   *  in one folder is a warning, a folder with neither is a group searched one level deep.
   *  load_files: all JS plugins before all Python plugins. */
  static void loadPlugins() {
    String home = getenv("MYSQLSH_USER_CONFIG_HOME");
    if (home == null) home = Paths.get(System.getProperty("user.home"), ".mysqlsh").toString();
    File root = new File(home, "plugins");
    List<String> js = new ArrayList<>();
    List<String[]> py = new ArrayList<>();
    scan(root, true, js, py, root.getAbsolutePath());
    List<String> errors = new ArrayList<>();
    for (String f : js) {
      try {
        main.getBindings("js").getMember("require").getMember("__mh").getMember("__load_module").execute(f);
      } catch (PolyglotException | ShellError e) {
        errors.add("Error loading JavaScript file '" + f + "':\n\tExecution failed: " + e.getMessage());
      }
    }
    if (!py.isEmpty()) {
      try {
        python = new Python(py);
        errors.addAll(python.errors);
      } catch (RuntimeException e) {
        errors.add("Error loading Python plugins: " + e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      // The Shell writes these to mysqlsh.log; the host writes no log, so they go to stderr.
      ERR.println("WARNING: Found errors loading plugins:");
      for (String e : errors) ERR.println(e);
    }
  }

  private static void scan(File dir, boolean top, List<String> js, List<String[]> py, String pluginsRoot) {
    File[] entries = dir.listFiles();
    if (entries == null) return;
    for (File d : entries) {
      if (!d.isDirectory() || d.getName().startsWith(".")) continue;
      File initJs = new File(d, "init.js"), initPy = new File(d, "init.py");
      if (initJs.isFile() && initPy.isFile()) {
        ERR.println("WARNING: Found multiple plugin initialization files for plugin '" + d.getName() + "' at "
            + d.getAbsolutePath() + ", ignoring plugin.");
      } else if (initJs.isFile()) {
        js.add(initJs.getAbsolutePath());
      } else if (initPy.isFile()) {
        // python_context.cc: plugins root first on sys.path (one more dirname for a group member)
        String r = top ? d.getParentFile().getAbsolutePath() : d.getParentFile().getParentFile().getAbsolutePath();
        py.add(new String[] {initPy.getAbsolutePath(), r});
      } else if (top) {
        scan(d, false, js, py, pluginsRoot);
      }
    }
  }

  // ------------------------------------------------------------------ globals
  static ProxyExecutable fn(Sh.ShellFunction f) { return new Sh.FunctionProxy(f); }

  static void installGlobals() {
    Value g = main.getBindings("js");
    g.putMember("shell", new ShellObj());
    g.putMember("util", new UtilObj());
    g.putMember("os", new OsObj());
    g.putMember("sys", new SysObj());
    g.putMember("dba", new Sh.HostObject() { @Override public String className() { return "Dba"; } });
    g.putMember("session", null);
    g.putMember("db", null);
    g.putMember("println", fn(a -> { OUT.println(join(a)); return Sh.UNDEFINED; }));
    g.putMember("print", fn(a -> { OUT.print(join(a)); OUT.flush(); return Sh.UNDEFINED; }));
    g.putMember("repr", fn(a -> Sh.descrNestedPublic(a.isEmpty() ? Sh.UNDEFINED : a.get(0))));
    g.putMember("type", fn(a -> a.isEmpty() ? "Undefined" : Sh.typeName(a.get(0))));
    g.putMember("__list_native_modules", fn(a -> new ArrayList<Object>(Arrays.asList("mysql", "mysqlx"))));
    g.putMember("__load_native_module", fn(a -> new MysqlModule()));
    g.putMember("__current_module_folder", fn(a -> new File(scripts.peek()).getParent()));
    g.putMember("__load_module", (ProxyExecutable) a -> Sh.guard(() -> { loadModule(a[0].asString(), a[1]); return Sh.UNDEFINED; }));
  }

  static String join(List<Object> a) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < a.size(); i++) { if (i > 0) sb.append(' '); sb.append(Sh.descr(a.get(i))); }
    return sb.toString();
  }

  static final class MysqlModule extends Sh.HostObject {
    MysqlModule() {
      fn("getClassicSession", a -> new Session((String) a.get(0), a.size() > 1 && a.get(1) instanceof String ? (String) a.get(1) : null));
      fn("getSession", a -> new Session((String) a.get(0)));
    }
    @Override public String className() { return "mysql"; }
  }

  /** mod_shell.cc: the members a plugin uses. */
  static final class ShellObj extends Sh.HostObject {
    ShellObj() {
      fn("createExtensionObject", a -> {
        if (!a.isEmpty()) throw new ShellError("ArgumentError", "Invalid number of arguments, expected 0 but got " + a.size(), 0);
        return new ExtensionObject();
      });
      fn("addExtensionObjectMember", a -> {
        if (a.size() < 3 || a.size() > 4) throw new ShellError("ArgumentError", "Invalid number of arguments, expected 3 to 4 but got " + a.size(), 0);
        if (!(a.get(0) instanceof Sh.ShellObject)) throw new ShellError("TypeError", "Argument #1 is expected to be an object", 0);
        if (!(a.get(0) instanceof ExtensionObject)) throw new ShellError("ArgumentError", "Argument #1 is expected to be an extension object", 0);
        if (!(a.get(1) instanceof String)) throw new ShellError("TypeError", "Argument #2 is expected to be a string", 0);
        Object def = a.size() > 3 ? a.get(3) : Sh.UNDEFINED;
        if (def != Sh.UNDEFINED && def != null && !(def instanceof TreeMap)) throw new ShellError("TypeError", "Argument #4 is expected to be a map", 0);
        ((ExtensionObject) a.get(0)).addMember((String) a.get(1), a.get(2), def instanceof TreeMap ? Sh.castMap(def) : null);
        return Sh.UNDEFINED;
      });
      fn("registerGlobal", a -> {
        if (a.size() < 2 || !(a.get(0) instanceof String) || !(a.get(1) instanceof ExtensionObject)) {
          throw new ShellError("ArgumentError", "registerGlobal(name, extensionObject[, definition]) expected", 0);
        }
        String name = (String) a.get(0);
        ExtensionObject o = (ExtensionObject) a.get(1);
        if (o.registered) throw new ShellError("ArgumentError", "The provided extension object is already registered as: " + o.qualified + ".", 0);
        if (globals.containsKey(name) || main.getBindings("js").hasMember(name) && !main.getBindings("js").getMember(name).isNull()) {
          throw new ShellError("ArgumentError", "The name '" + name + "' is already in use.", 0);
        }
        o.register(name);
        if (a.size() > 2 && a.get(2) instanceof TreeMap) o.globalDefinition = Sh.castMap(a.get(2));
        globals.put(name, o);
        main.getBindings("js").putMember(name, o);  // set_global: main context (later files copy it)
        return Sh.UNDEFINED;
      });
      fn("getSession", a -> session);
      fn("prompt", a -> {
        // Not interactive (stdin closed): a text prompt at end of input returns the defaultValue or "".
        Object o = a.size() > 1 ? a.get(1) : null;
        Object d = o instanceof Map ? ((Map<?, ?>) o).get("defaultValue") : null;
        return d == null ? "" : d;
      });
      fn("log", a -> Sh.UNDEFINED);
      fn("help", a -> { OUT.println(a.isEmpty() ? "" : helpTopic(String.valueOf(a.get(0)))); return Sh.UNDEFINED; });
      val("version", VERSION);
      Sh.HostObject options = new Sh.HostObject() { @Override public String className() { return "Options"; } };
      options.members.put("interactive", Boolean.FALSE);
      options.members.put("useWizards", Boolean.TRUE);
      options.members.put("resultFormat", "table");
      members.put("options", options);
    }
    @Override public String className() { return "Shell"; }
  }

  static String helpTopic(String topic) {
    String[] parts = topic.split("\\.", 2);
    ExtensionObject o = globals.get(parts[0]);
    return o == null ? "" : o.help(parts.length > 1 ? parts[1] : null);
  }

  /** util: delegated to a real mysqlsh (see NOTES.md). */
  static final class UtilObj extends Sh.HostObject {
    UtilObj() {
      fn("loadDump", a -> delegate("loadDump", a));
      fn("dumpInstance", a -> delegate("dumpInstance", a));
      fn("dumpSchemas", a -> delegate("dumpSchemas", a));
      fn("dumpTables", a -> delegate("dumpTables", a));
      fn("importTable", a -> delegate("importTable", a));
    }
    @Override public String className() { return "Util"; }
  }

  static Object delegate(String method, List<Object> a) {
    if (uri == null) throw new ShellError("RuntimeError", "An open session is required to perform this operation.", 0);
    List<Object> args = new ArrayList<>(a);
    while (!args.isEmpty() && args.get(args.size() - 1) == Sh.UNDEFINED) args.remove(args.size() - 1);
    StringBuilder js = new StringBuilder("util.").append(method).append('(');
    for (int i = 0; i < args.size(); i++) { if (i > 0) js.append(", "); js.append(Json.write(args.get(i), false)); }
    js.append(')');
    String exe = getenv("RESTORE_MYSQLSH");
    if (exe == null || exe.isEmpty()) {
      throw new ShellError("RuntimeError", "RESTORE_MYSQLSH is not set: run the host through run.sh, which finds the real mysqlsh in ../shared.", 0);
    }
    Path tmpHome = null;
    try {
      tmpHome = Files.createTempDirectory("graal-host-mysqlsh-");
      ProcessBuilder pb = new ProcessBuilder(exe, uri, "--js", "-e", js.toString());
      pb.environment().clear();
      pb.environment().putAll(env);
      pb.environment().put("MYSQLSH_USER_CONFIG_HOME", tmpHome.toString());  // no plugins, logs in a temp dir
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process p = pb.start();
      List<String> errLines = new ArrayList<>();
      Thread t = new Thread(() -> pump(p.getErrorStream(), ERR, errLines));
      t.start();
      pump(p.getInputStream(), OUT, null);
      int rc = p.waitFor();
      t.join();
      if (rc != 0) {
        for (String l : errLines) {
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.*) \\((\\w*Error)(?: (\\d+))?\\)$").matcher(l);
          if (m.matches()) throw new ShellError(m.group(2), m.group(1), m.group(3) == null ? 0 : Long.parseLong(m.group(3)));
        }
        String last = errLines.isEmpty() ? "util." + method + " failed (exit " + rc + ")" : errLines.get(errLines.size() - 1);
        throw new ShellError("RuntimeError", last, 0);
      }
      return Sh.UNDEFINED;
    } catch (IOException | InterruptedException e) {
      throw new ShellError("RuntimeError", "Cannot run " + exe + ": " + e.getMessage(), 0);
    } finally {
      if (tmpHome != null) deleteTree(tmpHome.toFile());
    }
  }

  static void pump(InputStream in, PrintStream to, List<String> keep) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String clean = line.replaceAll("\u001b\\[[0-9;]*m", "");
        if (clean.startsWith("WARNING: Using a password on the command line")) continue;
        to.println(clean);
        if (keep != null) keep.add(clean);
      }
    } catch (IOException e) {
      // process gone
    }
  }

  static void deleteTree(File f) {
    File[] c = f.listFiles();
    if (c != null) for (File x : c) deleteTree(x);
    f.delete();
  }

  /** mod_os.cc / mod_path.cc. */
  static final class OsObj extends Sh.HostObject {
    OsObj() {
      fn("getenv", a -> getenv(String.valueOf(a.get(0))));
      fn("getcwd", a -> System.getProperty("user.dir"));
      fn("sleep", a -> {
        try { Thread.sleep((long) (((Number) a.get(0)).doubleValue() * 1000)); } catch (InterruptedException e) { }
        return Sh.UNDEFINED;
      });
      fn("loadTextFile", a -> {
        String p = String.valueOf(a.get(0));
        try {
          return new String(Files.readAllBytes(Paths.get(p)), StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
          throw new ShellError("RuntimeError", p + ": No such file or directory", 0);
        } catch (java.nio.file.AccessDeniedException e) {
          throw new ShellError("RuntimeError", p + ": Permission denied", 0);
        } catch (IOException e) {
          throw new ShellError("RuntimeError", p + ": " + (new File(p).isDirectory() ? "Is a directory" : e.getMessage()), 0);
        }
      });
      members.put("path", new PathObj());
    }
    @Override public String className() { return "Os"; }
  }

  static final class PathObj extends Sh.HostObject {
    PathObj() {
      fn("basename", a -> { String p = s(a, 0); int i = p.lastIndexOf('/'); return i < 0 ? p : p.substring(i + 1); });
      fn("dirname", a -> {
        String p = s(a, 0);
        int i = p.lastIndexOf('/');
        if (i < 0) return ".";
        String d = p.substring(0, i).replaceAll("/+$", "");
        return d.isEmpty() ? "/" : d;
      });
      fn("isabs", a -> s(a, 0).startsWith("/"));
      fn("isdir", a -> new File(s(a, 0)).isDirectory());
      fn("isfile", a -> new File(s(a, 0)).isFile());
      fn("join", a -> {
        if (a.size() < 2 || a.size() > 4) throw new ShellError("ArgumentError", "Invalid number of arguments, expected 2 to 4 but got " + a.size(), 0);
        String r = s(a, 0);
        for (int i = 1; i < a.size(); i++) {
          String part = s(a, i);
          if (i >= 2 && part.isEmpty()) continue;
          if (part.startsWith("/")) r = part;
          else if (r.isEmpty() || r.endsWith("/")) r = r + part;
          else r = r + "/" + part;
        }
        return r;
      });
      fn("normpath", a -> normpath(s(a, 0)));
    }
    @Override public String className() { return "Path"; }
  }

  static String s(List<Object> a, int i) {
    Object o = i < a.size() ? a.get(i) : null;
    if (!(o instanceof String)) throw new ShellError("TypeError", "Argument #" + (i + 1) + " is expected to be a string", 0);
    return (String) o;
  }

  static String normpath(String p) {
    if (p.isEmpty()) return ".";
    boolean abs = p.startsWith("/");
    List<String> out = new ArrayList<>();
    for (String c : p.split("/+")) {
      if (c.isEmpty() || c.equals(".")) continue;
      if (c.equals("..")) {
        if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) out.remove(out.size() - 1);
        else if (!abs) out.add(c);
      } else out.add(c);
    }
    String r = (abs ? "/" : "") + String.join("/", out);
    return r.isEmpty() ? "." : r;
  }

  /** mod_sys.cc: sys.path (module search path) and sys.argv. */
  static final class SysObj extends Sh.HostObject {
    final List<Object> path = new ArrayList<>();
    SysObj() {
      path.add(Paths.get(System.getProperty("graalhost.home", "."), "modules", "js").toString());
      String extra = getenv("MYSQLSH_JS_MODULE_PATH");
      if (extra != null) for (String e : extra.split(";")) if (!e.isEmpty()) path.add(e);
      members.put("path", (java.util.function.Supplier<Object>) () -> path);
      members.put("argv", (java.util.function.Supplier<Object>) () -> new ArrayList<Object>());
    }
    @Override public String className() { return "Sys"; }
  }
}

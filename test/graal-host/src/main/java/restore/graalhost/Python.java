package restore.graalhost;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import restore.graalhost.Sh.ShellError;

/** The Python plugins, run for real in python3 (python/companion.py), loaded after every JS
 *  plugin (mysql_shell.cc load_files: File_list is ordered JS then Python). Their members are
 *  added to the same extension objects; calls cross as JSON lines (bytes as base64). */
final class Python {
  final Process proc;
  final BufferedReader in;
  final Writer out;
  final Thread stderr;  // the companion's stderr copied to Main.ERR (the call's, under --serve)
  final List<String> errors = new ArrayList<>();

  Python(List<String[]> plugins) {
    List<Object> ps = new ArrayList<>();
    for (String[] p : plugins) {
      TreeMap<String, Object> m = new TreeMap<>();
      m.put("file", p[0]);
      m.put("root", p[1]);
      ps.add(m);
    }
    TreeMap<String, Object> config = new TreeMap<>();
    config.put("globals", new ArrayList<Object>(Main.globals.keySet()));
    config.put("plugins", ps);
    String companion = Paths.get(System.getProperty("graalhost.home", "."), "python", "companion.py").toString();
    try {
      ProcessBuilder pb = new ProcessBuilder("python3", "-u", "-B", companion, Json.write(config, true));
      pb.environment().clear();
      pb.environment().putAll(Main.env);
      proc = pb.start();
    } catch (IOException e) {
      throw new ShellError("RuntimeError", "Cannot start python3: " + e.getMessage(), 0);
    }
    stderr = new Thread(() -> {
      try {
        proc.getErrorStream().transferTo(Main.ERR);
      } catch (IOException e) {
        // companion gone
      }
    });
    stderr.start();
    in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8));
    out = new OutputStreamWriter(proc.getOutputStream(), StandardCharsets.UTF_8);
    for (Map.Entry<String, ExtensionObject> e : Main.globals.entrySet()) refs.put(e.getKey(), e.getValue());
    Map<String, Object> loaded = Sh.castMap(serve());
    for (Object e : (List<?>) loaded.get("errors")) {
      Map<String, Object> m = Sh.castMap(e);
      errors.add("Error loading Python file '" + m.get("file") + "':\n\t" + m.get("error"));
    }
  }

  // Extension objects by the reference Python knows them by (global name, or "x:N").
  final Map<String, ExtensionObject> refs = new HashMap<>();

  String ref(ExtensionObject o) {
    for (Map.Entry<String, ExtensionObject> e : refs.entrySet()) if (e.getValue() == o) return e.getKey();
    String r = "x:" + refs.size();
    refs.put(r, o);
    return r;
  }

  private Object enc(Object v) {
    if (v instanceof ExtensionObject) { TreeMap<String, Object> m = new TreeMap<>(); m.put("__object__", ref((ExtensionObject) v)); return m; }
    if (v instanceof List) { List<Object> l = new ArrayList<>(); for (Object o : (List<?>) v) l.add(enc(o)); return l; }
    if (v instanceof TreeMap) { TreeMap<String, Object> m = new TreeMap<>(); for (Map.Entry<String, Object> e : Sh.castMap(v).entrySet()) m.put(e.getKey(), enc(e.getValue())); return m; }
    if (v == Sh.UNDEFINED || v instanceof Sh.ShellFunction || v instanceof Sh.ShellObject) return null;
    return v;
  }

  private Object dec(Object v) {
    if (v instanceof TreeMap) {
      TreeMap<String, Object> m = Sh.castMap(v);
      if (m.size() == 1 && m.containsKey("__object__")) return refs.get((String) m.get("__object__"));
      for (Map.Entry<String, Object> e : m.entrySet()) e.setValue(dec(e.getValue()));
      return m;
    }
    if (v instanceof List) { List<Object> l = Sh.castList(v); for (int i = 0; i < l.size(); i++) l.set(i, dec(l.get(i))); return l; }
    return v;
  }

  static String snake(String name) {  // utils_general.cc get_member_name(LowerCaseUnderscores)
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && name.charAt(i - 1) != '_') sb.append('_').append(Character.toLowerCase(c));
      else sb.append(Character.toLowerCase(c));
    }
    return sb.toString();
  }

  private void send(Object msg) {
    try {
      out.write(Json.write(msg, true));
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new ShellError("RuntimeError", "The Python companion is gone: " + e.getMessage(), 0);
    }
  }

  /** Reads messages, serving Python's requests (which may call JS, which may call Python again),
   *  until a reply (or the "loaded" message) arrives. */
  private Object serve() {
    while (true) {
      String line;
      try {
        line = in.readLine();
      } catch (IOException e) {
        throw new ShellError("RuntimeError", "The Python companion failed: " + e.getMessage(), 0);
      }
      if (line == null) throw new ShellError("RuntimeError", "The Python companion exited", 0);
      TreeMap<String, Object> m = Sh.castMap(Json.parse(line));
      Object op = m.get("op");
      if ("loaded".equals(op)) return m;
      if (op != null) {
        TreeMap<String, Object> reply = new TreeMap<>();
        try {
          reply.put("reply", enc(handle((String) op, m)));
        } catch (ShellError e) {
          reply.put("error", e.data());
        } catch (org.graalvm.polyglot.PolyglotException e) {
          reply.put("error", Sh.fromPolyglot(e).data());
        }
        send(reply);
        continue;
      }
      if (m.containsKey("error")) {
        Map<String, Object> e = Sh.castMap(m.get("error"));
        Object code = e.get("code");
        throw new ShellError(String.valueOf(e.get("type")), String.valueOf(e.get("message")),
            code instanceof Number ? ((Number) code).longValue() : 0);
      }
      return dec(m.get("reply"));
    }
  }

  private ExtensionObject.Member find(ExtensionObject o, String pyName) {
    ExtensionObject.Member m = o.defs.get(pyName);
    if (m != null) return m;
    for (ExtensionObject.Member x : o.defs.values()) if (snake(x.name).equals(pyName)) return x;
    return null;
  }

  private Object handle(String op, TreeMap<String, Object> m) {
    switch (op) {
      case "create_object": {
        ExtensionObject o = new ExtensionObject();
        return ref(o);
      }
      case "add_member": {
        ExtensionObject target = refs.get((String) m.get("object"));
        Object member;
        if (m.containsKey("child")) member = refs.get((String) m.get("child"));
        else if (m.containsKey("function")) {
          long id = ((Number) m.get("function")).longValue();
          member = (Sh.ShellFunction) args -> call(id, args);
        } else member = dec(m.get("value"));
        Object def = dec(m.get("definition"));
        target.addMember((String) m.get("name"), member, def instanceof TreeMap ? Sh.castMap(def) : null);
        if (target.registered && member instanceof ExtensionObject) ((ExtensionObject) member).register((String) m.get("name"));
        return null;
      }
      case "register_global": {
        ExtensionObject o = refs.get((String) m.get("object"));
        Main.main.getBindings("js").getMember("shell").getMember("registerGlobal")
            .execute(m.get("name"), o, Sh.toJs(dec(m.get("definition"))));
        return null;
      }
      case "get_member": {
        ExtensionObject o = refs.get((String) m.get("object"));
        ExtensionObject.Member mem = o == null ? null : find(o, (String) m.get("name"));
        TreeMap<String, Object> kind = new TreeMap<>();
        if (mem == null) kind.put("missing", true);
        else if (mem.value instanceof Sh.ShellFunction) kind.put("function", true);
        else kind.put("value", mem.value);
        return kind;
      }
      case "call_member": {
        ExtensionObject o = refs.get((String) m.get("object"));
        ExtensionObject.Member mem = find(o, (String) m.get("name"));
        if (mem == null) throw new ShellError("AttributeError", "no member " + m.get("name"), 0);
        return o.call(mem, Sh.castList(dec(m.get("args"))));
      }
      default:
        throw new ShellError("RuntimeError", "unknown request " + op, 0);
    }
  }

  synchronized Object call(long id, List<Object> args) {
    List<Object> a = new ArrayList<>();
    for (Object o : args) a.add(o == Sh.UNDEFINED ? null : enc(o));
    TreeMap<String, Object> req = new TreeMap<>();
    req.put("op", "call");
    req.put("id", id);
    req.put("args", a);
    send(req);
    return serve();
  }

  void close() {
    try { out.close(); } catch (IOException e) { }
    try { proc.waitFor(); stderr.join(); } catch (InterruptedException e) { }
  }
}

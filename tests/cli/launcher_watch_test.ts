import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  chainAlive,
  isLauncher,
  launcherChain,
  type ProcessEntry,
  type ProcessReader,
  readProcesses,
} from "../../cli/launcher_watch.ts";

Deno.test("isLauncher: the processes of npx … task start are launchers, a shell or a service is not", () => {
  // Argument vectors as /proc showed them for `npx -y deno@2.9.6 task emulator -- --port=8085`.
  const launchers = [
    ["npm", "exec", "deno@2.9.6", "task", "emulator", "--", "--port=8085"],
    ["sh", "-c", "'deno'", "task", "emulator", "--", "--port=8085"],
    ["deno", "task", "emulator", "--", "--port=8085"],
    ["/usr/local/bin/deno", "task", "--cwd", "/x", "start"],
    ["node", "/usr/lib/node_modules/npm/bin/npx-cli.js", "-y", "deno"],
    ["/bin/bash", "-c", "'/root/.npm/_npx/7a40/node_modules/deno/deno'", "task", "start;", "true"],
  ];
  for (const command of launchers) assert(isLauncher(command), command.join(" "));
  const others = [
    [],
    ["-bash"],
    ["bash"],
    ["sh", "-c", "python3", "serve.py"],
    ["/usr/bin/deno", "run", "-A", "main.ts", "task"],
    ["/usr/bin/deno", "test", "--allow-all"],
    ["systemd", "--user"],
    ["tmux"],
  ];
  for (const command of others) assert(!isLauncher(command), command.join(" "));
});

Deno.test("launcherChain: walks up while the parent is a launcher, and stops at the first that is not", () => {
  const table = new Map<number, ProcessEntry>([
    [40, { pid: 40, ppid: 30, startTime: "4", command: ["deno", "task", "start"] }],
    [30, { pid: 30, ppid: 20, startTime: "3", command: ["sh", "-c", "deno", "task", "start"] }],
    [20, { pid: 20, ppid: 10, startTime: "2", command: ["npm", "exec", "deno@2.9.6", "task", "start"] }],
    [10, { pid: 10, ppid: 5, startTime: "1", command: ["-bash"] }],
    [5, { pid: 5, ppid: 1, startTime: "0", command: ["npm", "exec", "something"] }],
  ]);
  const read: ProcessReader = (pids) =>
    new Map(pids.flatMap((pid) => table.has(pid) ? [[pid, table.get(pid)!] as const] : []));
  assertEquals(launcherChain(40, read).map((entry) => entry.pid), [40, 30, 20]);
  assertEquals(launcherChain(10, read), []);
  const chain = launcherChain(40, read);
  assert(chainAlive(chain, read));
  table.delete(30);
  assert(!chainAlive(chain, read), "a launcher that ended breaks the chain");
  table.set(30, { pid: 30, ppid: 1, startTime: "99", command: ["deno", "task", "x"] });
  assert(!chainAlive(chain, read), "a new process that reuses the pid is not the launcher");
  table.set(30, {
    pid: 30,
    ppid: 20,
    startTime: "3",
    command: ["sh", "-c", "deno", "task", "start"],
    state: "Z",
  });
  assert(!chainAlive(chain, read), "a zombie has ended");
  table.set(30, {
    pid: 30,
    ppid: 20,
    startTime: "3",
    command: ["sh", "-c", "deno", "task", "start"],
    state: "S",
  });
  assert(chainAlive(chain, read));
  table.set(40, { pid: 40, ppid: 1, startTime: "4", command: ["deno", "task", "start"] });
  assert(!chainAlive(chain, read), "a launcher handed to init has lost its parent");
  table.set(40, { pid: 40, ppid: 30, startTime: "4", command: ["deno", "task", "start"] });
  table.set(20, {
    pid: 20,
    ppid: 1,
    startTime: "2",
    command: ["npm", "exec", "deno@2.9.6", "task", "start"],
  });
  assert(chainAlive(chain, read), "the topmost launcher may outlive the shell that started it (nohup)");
});

Deno.test({
  name: "readProcesses: one ps call reads this process, its parent and start time; an ended pid is absent",
  ignore: Deno.build.os === "windows",
  fn() {
    const ended = 2 ** 22 + 7;
    const found = readProcesses([Deno.pid, Deno.ppid, ended]);
    const self = found.get(Deno.pid);
    assert(self, "this process is listed");
    assertEquals(self.ppid, Deno.ppid);
    assert(/^\w{3} \w{3} \d+ [\d:]+ \d{4}$/.test(self.startTime), self.startTime);
    assert(found.has(Deno.ppid));
    assertEquals(found.has(ended), false);
    assertEquals(readProcesses([ended]).size, 0);
  },
});

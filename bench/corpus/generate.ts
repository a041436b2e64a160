// Writes bench/corpus/commands.json: bash commands of the kind a coding agent runs, built from
// hand-written templates with a seeded generator, so the same file comes out on every machine.
// Run: bun bench/corpus/generate.ts

import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const CORPUS_FILE = join(import.meta.dir, "commands.json");
const COUNT = 2400;
const SEED = 0x5eed;

type Pick = <T>(items: readonly T[]) => T;

interface Random {
  pick: Pick;
  int(min: number, max: number): number;
  chance(probability: number): boolean;
}

/** mulberry32: tiny, seedable, good enough to vary templates. */
export function random(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { pick: (items) => items[int(0, items.length - 1)], int, chance: (probability) => next() < probability };
}

// ── Vocabulary ─────────────────────────────────────────────────────────────────────────────

const DIRS = ["src", "lib", "app", "packages/core/src", "packages/web/src", "tests", "test/unit", "scripts", "cmd/server", "internal/api", "crates/parser/src", "docs", "config", "server", "client/src/components"];
const FILES = ["index.ts", "main.go", "app.py", "lib.rs", "utils.ts", "server.js", "config.yaml", "README.md", "package.json", "Cargo.toml", "handler.go", "models.py", "router.tsx", "schema.sql", "Makefile", "tsconfig.json", "setup.cfg", "api_test.go", "test_models.py", "button.test.tsx"];
const SYMBOLS = ["parseConfig", "handleRequest", "UserService", "TODO", "FIXME", "useEffect", "fetchUser", "retryWithBackoff", "process.env", "NotImplementedError", "unwrap()", "console.log", "deprecated", "import React", "def test_", "func New", "#[derive(Debug", "SELECT \\*", "http.Get", "setTimeout"];
const EXTENSIONS = ["ts", "tsx", "js", "py", "go", "rs", "md", "json", "yaml", "sql", "sh", "toml"];
const BRANCHES = ["main", "master", "develop", "feature/auth-refresh", "fix/null-deref", "chore/deps", "release/2.4", "agent/refactor-parser"];
const MESSAGES = ["Fix off-by-one in pagination", "Add retry to flaky upload test", "Refactor config loading", "Update dependencies", "Handle empty input in parser", "Document the CLI flags", "Remove dead code", "Speed up CI cache", "Fix typo in README", "Bump version to 2.4.1"];
const PACKAGES = ["lodash", "zod", "react-query", "vitest", "eslint-plugin-import", "@types/node", "requests", "pydantic", "numpy", "serde_json", "tokio", "clap", "github.com/spf13/cobra", "express", "typescript"];
const HOSTS = ["api.github.com", "registry.npmjs.org", "localhost:3000", "127.0.0.1:8080", "httpbin.org", "pypi.org", "example.com"];
const SERVICES = ["web", "api", "worker", "db", "redis", "nginx", "queue"];
const NAMESPACES = ["default", "staging", "prod", "monitoring", "kube-system"];
const WORDS = ["alpha", "beta", "gamma", "delta", "release", "cache", "build", "tmp", "fixtures", "snapshots", "coverage", "artifacts", "logs"];
const UNICODE = ["héllo wörld", "naïve café", "日本語テスト", "✓ passed", "— em dash —", "emoji 🚀 launch", "Ελληνικά", "ümlaut-Pfad"];

// ── Templates ──────────────────────────────────────────────────────────────────────────────

type Template = (r: Random) => string;

const path = (r: Random) => `${r.pick(DIRS)}/${r.pick(FILES)}`;
const glob = (r: Random) => `'*.${r.pick(EXTENSIONS)}'`;
const tail = (r: Random) => r.pick(["", "", ` 2>&1 | tail -n ${r.int(5, 80)}`, ` | head -${r.int(10, 200)}`, " 2>&1 | less -R", ` | tee /tmp/${r.pick(WORDS)}.log`]);

const gitRead: Template = (r) =>
  r.pick([
    () => "git status",
    () => "git status --short --branch",
    () => `git diff ${r.pick(["", "--stat ", "--cached ", "HEAD~1 ", `${r.pick(BRANCHES)}...HEAD `])}-- ${path(r)}`,
    () => `git log --oneline -n ${r.int(5, 50)}${r.chance(0.4) ? ` -- ${r.pick(DIRS)}` : ""}`,
    () => `git log --pretty=format:'%h %an %s' --since='${r.int(1, 30)} days ago' | grep -i ${r.pick(["fix", "feat", "chore", "revert"])}`,
    () => `git show ${r.pick(["HEAD", "HEAD~2", "origin/main"])}:${path(r)} | sed -n '${r.int(1, 50)},${r.int(60, 200)}p'`,
    () => `git blame -L ${r.int(1, 100)},+${r.int(5, 40)} ${path(r)}`,
    () => `git branch -a --sort=-committerdate | head -${r.int(5, 20)}`,
    () => `git rev-parse --abbrev-ref HEAD && git rev-parse --short HEAD`,
    () => `git grep -n "${r.pick(SYMBOLS)}" -- ${glob(r)}`,
    () => `git stash list && git stash show -p stash@{${r.int(0, 3)}}`,
    () => `git fetch origin && git log --oneline HEAD..origin/${r.pick(BRANCHES)}`,
  ])();

const gitWrite: Template = (r) =>
  r.pick([
    () => `git add ${path(r)} && git commit -m "${r.pick(MESSAGES)}"`,
    () => `git commit -am "${r.pick(MESSAGES)}"`,
    () => `git commit -F - <<'EOF'\n${r.pick(MESSAGES)}\n\n${Array.from({ length: r.int(1, 6) }, () => `- ${r.pick(MESSAGES).toLowerCase()} in ${path(r)}`).join("\n")}\nEOF`,
    () => `git checkout -b ${r.pick(BRANCHES)}`,
    () => `git switch ${r.pick(BRANCHES)} && git pull --rebase`,
    () => `git push ${r.pick(["", "-u ", "--force-with-lease ", "--force "])}origin ${r.pick(BRANCHES)}`,
    () => `git rebase ${r.pick(["-i ", ""])}${r.pick(["origin/main", "HEAD~3", "develop"])}`,
    () => `git reset ${r.pick(["--soft", "--hard", "--mixed"])} HEAD~${r.int(1, 3)}`,
    () => `git stash push -m "${r.pick(WORDS)}" && git checkout ${r.pick(BRANCHES)}`,
    () => `git clean -${r.pick(["n", "fd", "fdx"])}`,
    () => `git tag -a v${r.int(0, 3)}.${r.int(0, 20)}.${r.int(0, 9)} -m "Release" && git push --tags`,
    () => `git cherry-pick ${r.int(1000000, 9999999).toString(16)}`,
  ])();

const search: Template = (r) =>
  r.pick([
    () => `rg -n "${r.pick(SYMBOLS)}" ${r.pick(DIRS)}${tail(r)}`,
    () => `rg --type ${r.pick(["ts", "py", "go", "rust", "js"])} -l "${r.pick(SYMBOLS)}" | xargs wc -l | sort -n | tail -${r.int(5, 20)}`,
    () => `grep -rn ${r.pick(["-i ", "-w ", "-E ", ""])}"${r.pick(SYMBOLS)}" ${r.pick(DIRS)} --include=${glob(r)}${tail(r)}`,
    () => `grep -c "${r.pick(SYMBOLS)}" $(git ls-files '${r.pick(DIRS)}/*.${r.pick(EXTENSIONS)}') | grep -v ':0$'`,
    () => `rg -o "${r.pick(["import .* from '([^']+)'", "require\\\\(['\\\"]([^'\\\"]+)", "func (\\\\w+)\\\\("])}" -r '$1' ${r.pick(DIRS)} | sort | uniq -c | sort -rn | head -${r.int(10, 40)}`,
    () => `ag --${r.pick(["ts", "python", "go"])} "${r.pick(SYMBOLS)}" ${r.pick(DIRS)}`,
  ])();

const find: Template = (r) =>
  r.pick([
    () => `find ${r.pick([".", ...DIRS])} -name ${glob(r)} -type f${r.chance(0.5) ? ` -mtime -${r.int(1, 14)}` : ""} | head -${r.int(20, 100)}`,
    () => `find . -path ./node_modules -prune -o -name ${glob(r)} -print | xargs grep -l "${r.pick(SYMBOLS)}"`,
    () => `find ${r.pick(DIRS)} -type f -name ${glob(r)} -exec wc -l {} + | sort -n | tail -${r.int(5, 15)}`,
    () => `find . -name '${r.pick(["*.pyc", "__pycache__", ".DS_Store", "*.orig"])}' ${r.pick(["-delete", "-print", "-exec rm -rf {} +"])}`,
    () => `fd -e ${r.pick(EXTENSIONS)} . ${r.pick(DIRS)} | wc -l`,
    () => `ls -la ${r.pick(["", ...DIRS])}`.trimEnd(),
    () => `tree -L ${r.int(1, 4)} -I 'node_modules|target|dist' ${r.pick(DIRS)}`,
    () => `du -sh ${r.pick(["node_modules", "target", "dist", ".git", "*"])} 2>/dev/null | sort -h`,
  ])();

const view: Template = (r) =>
  r.pick([
    () => `cat ${path(r)}`,
    () => `sed -n '${r.int(1, 300)},${r.int(301, 600)}p' ${path(r)}`,
    () => `head -n ${r.int(20, 120)} ${path(r)} && echo '---' && tail -n ${r.int(10, 60)} ${path(r)}`,
    () => `nl -ba ${path(r)} | sed -n '${r.int(1, 100)},${r.int(101, 250)}p'`,
    () => `awk -F'${r.pick([",", ":", "\\t", "|"])}' '{print $${r.int(1, 5)}}' ${r.pick(["data.csv", "/etc/passwd", "report.tsv", "access.log"])} | sort | uniq -c | sort -rn | head`,
    () => `jq '${r.pick([".dependencies | keys", ".scripts", ".[] | select(.status == \"failed\") | .name", ".compilerOptions.paths"])}' ${r.pick(["package.json", "tsconfig.json", "results.json"])}`,
    () => `wc -l ${Array.from({ length: r.int(2, 6) }, () => path(r)).join(" ")}`,
    () => `file ${path(r)} && stat ${path(r)}`,
  ])();

const build: Template = (r) =>
  r.pick([
    () => `npm ${r.pick(["test", "run build", "run lint", "run typecheck", "ci", "run test -- --watch=false"])}${tail(r)}`,
    () => `pnpm ${r.pick(["-r build", "test --filter web", "install --frozen-lockfile", "lint --fix"])}${tail(r)}`,
    () => `yarn ${r.pick(["test", "build", "jest --coverage", "tsc --noEmit"])}${tail(r)}`,
    () => `bun test ${r.pick(["", "tests/", `${r.pick(DIRS)} `, "--coverage"])}${tail(r)}`.replace(/ +$/, ""),
    () => `cargo ${r.pick(["build", "test", "clippy -- -D warnings", "check --all-targets", "test -p parser -- --nocapture", "fmt --check"])}${tail(r)}`,
    () => `go ${r.pick(["test ./...", "vet ./...", "build ./cmd/...", "test -run TestHandler -v ./internal/api", "mod tidy"])}${tail(r)}`,
    () => `python -m pytest ${r.pick(["", "-x ", "-q ", "-k 'not slow' "])}${r.pick(["tests/", "tests/test_models.py", ""])}${tail(r)}`,
    () => `make -j${r.int(2, 16)} ${r.pick(["", "test", "build", "lint", "clean all"])}`.trimEnd(),
    () => `npx tsc --noEmit -p ${r.pick([".", "packages/core", "tsconfig.build.json"])}${tail(r)}`,
    () => `npx eslint ${r.pick(DIRS)} --ext .ts,.tsx ${r.pick(["", "--fix", "--max-warnings 0"])}`.trimEnd(),
    () => `mvn -q -DskipTests package && java -jar target/app.jar --version`,
    () => `./gradlew ${r.pick(["test", "build", "assembleDebug"])} --no-daemon${tail(r)}`,
  ])();

const install: Template = (r) =>
  r.pick([
    () => `npm install ${r.pick(["", "-D ", "--save-exact "])}${r.pick(PACKAGES)}`,
    () => `pip install ${r.pick(["", "-U ", "-e . ", "-r requirements.txt "])}${r.pick(PACKAGES)}`.trimEnd(),
    () => `cargo add ${r.pick(PACKAGES)}${r.chance(0.4) ? " --features full" : ""}`,
    () => `go get ${r.pick(PACKAGES)}@latest`,
    () => `uv pip install ${r.pick(PACKAGES)} && uv pip freeze | grep -i ${r.pick(PACKAGES).split("/").pop()}`,
    () => `npm ${r.pick(["outdated", "ls --depth=0", "audit --omit=dev", "why " + r.pick(PACKAGES)])}`,
    () => `npm publish ${r.pick(["", "--access public", "--dry-run", "--tag next"])}`.trimEnd(),
    () => `npm install -g ${r.pick(PACKAGES)}`,
    () => `sudo apt-get install -y ${r.pick(["jq", "ripgrep", "build-essential", "libssl-dev", "postgresql-client"])}`,
    () => `brew install ${r.pick(["jq", "ripgrep", "fd", "gh", "hyperfine"])}`,
  ])();

const heredoc: Template = (r) => {
  const lines = r.int(3, 60);
  const kind = r.pick(["py", "ts", "json", "yaml", "sh", "sql", "md"] as const);
  const body = Array.from({ length: lines }, (_, index) => codeLine(r, kind, index)).join("\n");
  const file = `${r.pick(DIRS)}/${r.pick(WORDS)}.${kind}`;
  const quote = r.pick(["'EOF'", "EOF", '"EOF"', "'PY'"]);
  const tag = quote.replace(/['"]/g, "");
  return r.pick([
    () => `mkdir -p ${file.slice(0, file.lastIndexOf("/"))} && cat > ${file} <<${quote}\n${body}\n${tag}`,
    () => `cat <<${quote} > ${file}\n${body}\n${tag}\n${r.pick(["", `chmod +x ${file}`, `wc -l ${file}`, `git add ${file}`])}`.trimEnd(),
    () => `python3 - <<'PY'\n${Array.from({ length: lines }, (_, index) => codeLine(r, "py", index)).join("\n")}\nPY`,
    () => `tee -a ${file} > /dev/null <<${quote}\n${body}\n${tag}`,
    () => `psql "$DATABASE_URL" <<'SQL'\n${Array.from({ length: lines }, (_, index) => codeLine(r, "sql", index)).join("\n")}\nSQL`,
  ])();
};

function codeLine(r: Random, kind: string, index: number): string {
  const indent = "    ".repeat(r.int(0, 2));
  switch (kind) {
    case "py":
      return indent + r.pick([`import ${r.pick(["json", "sys", "os", "re", "pathlib"])}`, `def ${r.pick(WORDS)}_${index}(x):`, `return [item for item in x if item.${r.pick(WORDS)}]`, `print(f"{${r.pick(WORDS)}=}")`, `data = json.loads(open("${r.pick(FILES)}").read())`, `# ${r.pick(MESSAGES)}`]);
    case "ts":
      return indent + r.pick([`export function ${r.pick(WORDS)}${index}(input: string): string {`, `const ${r.pick(WORDS)} = await fetch("https://${r.pick(HOSTS)}/v1/${r.pick(WORDS)}");`, `}`, `// ${r.pick(MESSAGES)}`, `if (!value) throw new Error("${r.pick(UNICODE)}");`, `import { ${r.pick(WORDS)} } from "./${r.pick(WORDS)}";`]);
    case "json":
      return `  "${r.pick(WORDS)}${index}": ${r.pick(['"value"', "true", String(index), "[1, 2, 3]", "null", `"${r.pick(UNICODE)}"`])},`;
    case "yaml":
      return `${"  ".repeat(r.int(0, 3))}${r.pick(WORDS)}: ${r.pick(["true", "'*.log'", String(index), `\${{ secrets.${r.pick(WORDS).toUpperCase()}_TOKEN }}`, `ubuntu-latest`])}`;
    case "sql":
      return r.pick([`SELECT id, name FROM ${r.pick(WORDS)} WHERE created_at > now() - interval '${r.int(1, 30)} days';`, `INSERT INTO ${r.pick(WORDS)} (id, label) VALUES (${index}, '${r.pick(UNICODE)}');`, `CREATE INDEX IF NOT EXISTS idx_${r.pick(WORDS)} ON ${r.pick(WORDS)} (${r.pick(WORDS)});`, `UPDATE ${r.pick(WORDS)} SET state = 'done' WHERE id = ${index};`, `-- ${r.pick(MESSAGES)}`]);
    case "sh":
      return indent + r.pick([`set -euo pipefail`, `echo "${r.pick(UNICODE)}"`, `for f in ${r.pick(DIRS)}/*; do echo "$f"; done`, `export ${r.pick(WORDS).toUpperCase()}=${index}`, `[ -f "${r.pick(FILES)}" ] || exit 1`]);
    default:
      return r.pick([`## ${r.pick(MESSAGES)}`, `- ${r.pick(MESSAGES)} (${r.pick(UNICODE)})`, "", `\`${r.pick(FILES)}\` ${r.pick(WORDS)}`]);
  }
}

const scripting: Template = (r) =>
  r.pick([
    () => `python3 -c "import json,sys; d=json.load(open('${r.pick(["package.json", "results.json", "data.json"])}')); print(${r.pick(["len(d)", "list(d)[:10]", "d.get('version')", "sorted(d, key=str)[0]"])})"`,
    () => `node -e "const p=require('./package.json'); console.log(${r.pick(["p.version", "Object.keys(p.dependencies||{}).join('\\n')", "JSON.stringify(p.scripts,null,2)"])})"`,
    () => `python3 -m json.tool ${r.pick(["data.json", "results.json", "tsconfig.json"])} | head -${r.int(20, 80)}`,
    () => `perl -ne 'print if /${r.pick(SYMBOLS).replace(/[\\()*]/g, ".")}/' ${path(r)}`,
    () => `ruby -e 'puts File.read("${path(r)}").lines.grep(/${r.pick(WORDS)}/).size'`,
    () => `deno run -A ${r.pick(["scripts/gen.ts", "tools/check.ts"])} --${r.pick(WORDS)}`,
  ])();

const edits: Template = (r) =>
  r.pick([
    () => `sed -i ${r.pick(["", "''", ".bak"])} 's/${r.pick(SYMBOLS).replace(/[\\()*/]/g, "")}/${r.pick(WORDS)}/g' ${path(r)}`,
    () => `perl -pi -e 's/${r.pick(WORDS)}/${r.pick(WORDS)}/g' $(rg -l "${r.pick(WORDS)}" ${r.pick(DIRS)})`,
    () => `mv ${path(r)} ${path(r)} && git status --short`,
    () => `cp -r ${r.pick(DIRS)} /tmp/${r.pick(WORDS)}-backup-$(date +%s)`,
    () => `mkdir -p ${r.pick(DIRS)}/${r.pick(WORDS)} && touch ${r.pick(DIRS)}/${r.pick(WORDS)}/__init__.py`,
    () => `echo '${r.pick(["node_modules/", "*.log", ".env", "dist/", "coverage/"])}' >> .gitignore`,
    () => `printf '%s\\n' "${r.pick(UNICODE)}" "${r.pick(MESSAGES)}" > /tmp/${r.pick(WORDS)}.txt`,
    () => `chmod +x scripts/${r.pick(WORDS)}.sh && ./scripts/${r.pick(WORDS)}.sh`,
    () => `ln -sf ../${path(r)} ${r.pick(WORDS)}`,
  ])();

const net: Template = (r) =>
  r.pick([
    () => `curl -s${r.pick(["", "S", "L", "f"])} https://${r.pick(HOSTS)}/${r.pick(["repos/owner/repo/pulls", "health", "v1/status", "simple/" + r.pick(PACKAGES)])} | jq '${r.pick([".", ".[0]", ".items | length", ".status"])}'`,
    () => `curl -X POST -H 'Content-Type: application/json' -d '{"${r.pick(WORDS)}": ${r.int(1, 99)}}' http://${r.pick(HOSTS)}/api/${r.pick(WORDS)}`,
    () => `curl -fsSL https://${r.pick(["get.example.dev", "raw.githubusercontent.com/org/tool/main", "sh.rustup.rs"])}/install.sh | ${r.pick(["sh", "bash", "sudo bash"])}`,
    () => `wget -qO- https://${r.pick(HOSTS)}/${r.pick(WORDS)}.tar.gz | tar xz -C /tmp`,
    () => `gh ${r.pick(["pr list", "pr view --comments", "issue list --label bug", "run list --limit 5", "pr checks"])}`,
    () => `ssh ${r.pick(["deploy@prod-1", "ubuntu@10.0.0.12", "git@github.com"])} ${r.pick(["'uptime'", "'tail -n 100 /var/log/app.log'", "-T"])}`,
    () => `nc -zv ${r.pick(["localhost", "127.0.0.1", "db"])} ${r.pick(["5432", "6379", "3000", "8080"])}`,
    () => `dig +short ${r.pick(HOSTS).split(":")[0]} && ping -c ${r.int(1, 4)} ${r.pick(HOSTS).split(":")[0]}`,
  ])();

const containers: Template = (r) =>
  r.pick([
    () => `docker build -t ${r.pick(SERVICES)}:${r.pick(["dev", "latest", "test"])} ${r.pick([".", "-f docker/Dockerfile ."])}`,
    () => `docker compose ${r.pick(["up -d", "ps", "logs -f --tail=100 " + r.pick(SERVICES), "down", "restart " + r.pick(SERVICES)])}`,
    () => `docker run --rm ${r.pick(["-it ", "", "-v $(pwd):/work -w /work "])}${r.pick(["node:22", "python:3.12-slim", "golang:1.23", "alpine"])} ${r.pick(["sh -c 'npm test'", "python -V", "go version", "ls /"])}`,
    () => `docker exec -it $(docker ps -qf name=${r.pick(SERVICES)}) ${r.pick(["sh", "psql -U postgres", "redis-cli ping"])}`,
    () => `kubectl get ${r.pick(["pods", "deploy", "svc", "events --sort-by=.lastTimestamp"])} -n ${r.pick(NAMESPACES)}${r.chance(0.3) ? " -o wide" : ""}`,
    () => `kubectl logs -n ${r.pick(NAMESPACES)} deploy/${r.pick(SERVICES)} --tail=${r.int(50, 500)}`,
    () => `kubectl describe pod -n ${r.pick(NAMESPACES)} $(kubectl get pods -n ${r.pick(NAMESPACES)} -l app=${r.pick(SERVICES)} -o name | head -1)`,
    () => `helm ${r.pick(["list -A", "status " + r.pick(SERVICES), "template charts/" + r.pick(SERVICES)])}`,
    () => `docker system ${r.pick(["df", "prune -f", "prune -af --volumes"])}`,
  ])();

const processes: Template = (r) =>
  r.pick([
    () => `ps aux | grep -v grep | grep ${r.pick(["node", "python", "postgres", "vite", "webpack"])}`,
    () => `lsof -i :${r.pick(["3000", "5173", "8080", "5432"])}`,
    () => `kill ${r.pick(["", "-9 ", "-TERM "])}$(lsof -t -i :${r.pick(["3000", "5173", "8080"])})`,
    () => `env | grep -i ${r.pick(["path", "node", "python", "proxy", "home"])} | sort`,
    () => `which ${r.pick(["node", "python3", "go", "cargo", "bun"])} && ${r.pick(["node", "python3", "go", "cargo", "bun"])} --version`,
    () => `time ${r.pick(["npm test", "cargo build --release", "go test ./..."])}`,
    () => `timeout ${r.int(5, 120)} ${r.pick(["npm run dev", "python manage.py runserver", "./bin/server"])} > /tmp/server.log 2>&1 &`,
    () => `sleep ${r.int(1, 5)} && curl -s localhost:${r.pick(["3000", "8080"])}/health`,
    () => `uname -a && cat /etc/os-release | head -3 && df -h . && free -m`,
  ])();

const cleanup: Template = (r) =>
  r.pick([
    () => `rm ${r.pick(["-f ", ""])}${path(r)}`,
    () => `rm -rf ${r.pick(["node_modules", "dist", "build", ".next", "target", "coverage", "/tmp/" + r.pick(WORDS)])}${r.chance(0.5) ? " && npm install" : ""}`,
    () => `rm -r ${r.pick(DIRS)}/${r.pick(WORDS)}`,
    () => `truncate -s 0 ${r.pick(["logs/app.log", "/tmp/server.log"])}`,
    () => `rmdir ${r.pick(DIRS)}/${r.pick(WORDS)} 2>/dev/null || true`,
  ])();

const database: Template = (r) =>
  r.pick([
    () => `psql "$DATABASE_URL" -c "${r.pick(["SELECT count(*) FROM users;", "\\dt", "EXPLAIN ANALYZE SELECT * FROM orders WHERE user_id = 42;", "DROP TABLE IF EXISTS tmp_import;", "TRUNCATE sessions;"])}"`,
    () => `sqlite3 ${r.pick(["db.sqlite3", "data/app.db"])} "${r.pick([".tables", ".schema users", "SELECT * FROM migrations ORDER BY id DESC LIMIT 5;", "DELETE FROM cache;"])}"`,
    () => `mysql -u root -e "${r.pick(["SHOW DATABASES;", "SELECT VERSION();", "DROP DATABASE test_db;"])}"`,
    () => `redis-cli ${r.pick(["ping", "info memory", "keys 'session:*' | head", "FLUSHALL"])}`,
    () => `python manage.py ${r.pick(["migrate", "makemigrations", "showmigrations", "flush --no-input"])}`,
    () => `npx prisma ${r.pick(["migrate dev --name " + r.pick(WORDS), "generate", "db push", "migrate reset --force"])}`,
  ])();

const cloud: Template = (r) =>
  r.pick([
    () => `aws s3 ${r.pick(["ls s3://my-bucket/", "cp build/ s3://my-bucket/site --recursive", "rm s3://my-bucket/tmp --recursive", "sync ./dist s3://assets-bucket"])}`,
    () => `aws ${r.pick(["sts get-caller-identity", "ec2 describe-instances --query 'Reservations[].Instances[].InstanceId'", "logs tail /aws/lambda/" + r.pick(SERVICES) + " --since 10m"])}`,
    () => `gcloud ${r.pick(["config list", "run services list", "compute instances list", "logging read 'severity>=ERROR' --limit 20"])}`,
    () => `terraform ${r.pick(["init", "plan -out tfplan", "fmt -recursive", "validate", "apply tfplan", "destroy -auto-approve"])}`,
    () => `fly ${r.pick(["status", "logs", "deploy", "secrets list"])}`,
  ])();

const loops: Template = (r) =>
  r.pick([
    () => `for f in $(git diff --name-only ${r.pick(["HEAD~1", "origin/main"])}); do echo "== $f"; ${r.pick(["wc -l \"$f\"", "head -5 \"$f\"", "npx prettier --check \"$f\""])}; done`,
    () => `for i in $(seq 1 ${r.int(3, 20)}); do ${r.pick(["npm test -- --runInBand", "go test -count=1 ./...", "pytest -x -q"])} > /tmp/run-$i.log 2>&1 || echo "failed on run $i"; done`,
    () => `while read -r line; do echo "\${line%%:*}"; done < <(grep -rn "${r.pick(SYMBOLS)}" ${r.pick(DIRS)})`,
    () => `find ${r.pick(DIRS)} -name ${glob(r)} | while read -r file; do\n  ${r.pick(["sed -i 's/\\t/  /g' \"$file\"", "echo \"$(wc -l < \"$file\") $file\"", "grep -q TODO \"$file\" && echo \"$file\""])}\ndone`,
    () => `if [ -f package.json ]; then\n  npm ${r.pick(["test", "run build"])}\nelse\n  echo "${r.pick(UNICODE)}"\nfi`,
    () => `for dir in ${Array.from({ length: r.int(2, 5) }, () => r.pick(DIRS)).join(" ")}; do (cd "$dir" && ${r.pick(["ls", "git status --short .", "npm test"])}); done`,
  ])();

const chains: Template = (r) => {
  const parts = Array.from({ length: r.int(2, 5) }, () => r.pick(SIMPLE)(r));
  const joiners = ["&&", "&&", "&&", ";", "||", "|"];
  return parts.reduce((line, part) => `${line} ${r.pick(joiners)} ${part}`);
};

/** Many segments on one line, the way an agent chains a whole workflow. */
const longOneLiner: Template = (r) => {
  const parts = Array.from({ length: r.int(6, 18) }, () => r.pick(SIMPLE)(r));
  const line = parts.reduce((acc, part) => `${acc} ${r.pick(["&&", "&&", ";", "|"])} ${part}`);
  return r.chance(0.3) ? `cd ${r.pick(DIRS)} && (${line})` : line;
};

const quirky: Template = (r) =>
  r.pick([
    () => `echo "${r.pick(UNICODE)}" | ${r.pick(["wc -c", "iconv -f utf-8 -t ascii//TRANSLIT", "xxd | head"])}`,
    () => `printf '\\e[31m%s\\e[0m\\n' "${r.pick(MESSAGES)}"`,
    () => `printf 'a\\tb\\tc\\n' | column -t -s $'\\t'`,
    () => `VAR=$(cat <<'EOF'\n${r.pick(MESSAGES)}\n${r.pick(UNICODE)}\nEOF\n) && echo "$VAR"`,
    () => `export NODE_OPTIONS='--max-old-space-size=${r.pick(["4096", "8192"])}' && ${r.pick(["npm run build", "npx vite build"])}`,
    () => `${r.pick(["DEBUG=*", "RUST_BACKTRACE=1", "PYTHONPATH=src", "CI=1 FORCE_COLOR=0"])} ${r.pick(["npm test", "cargo test", "python -m pytest -q", "node scripts/check.js"])}`,
    () => `echo "${r.pick(WORDS)}" > "${r.pick(DIRS)}/file with spaces ${r.int(1, 9)}.txt"`,
    () => `diff <(sort ${path(r)}) <(sort ${path(r)}) | head -${r.int(10, 50)}`,
    () => `sudo ${r.pick(["systemctl restart nginx", "chown -R $USER:$USER .", "lsof -i :80", "rm -rf /var/cache/app"])}`,
    () => `chmod ${r.pick(["-R 777", "644", "+x", "600"])} ${r.pick(["scripts/", "~/.ssh/id_ed25519", "deploy.sh", "."])}`,
  ])();

const SIMPLE: Template[] = [gitRead, search, view, build, processes, edits, (r) => `cd ${r.pick(DIRS)}`, (r) => `echo "${r.pick(MESSAGES)}"`, (r) => `test -f ${path(r)}`];

const FAMILIES: [Template, number][] = [
  [gitRead, 10],
  [gitWrite, 6],
  [search, 9],
  [find, 6],
  [view, 8],
  [build, 10],
  [install, 4],
  [heredoc, 7],
  [scripting, 4],
  [edits, 5],
  [net, 4],
  [containers, 4],
  [processes, 4],
  [cleanup, 3],
  [database, 2],
  [cloud, 2],
  [loops, 4],
  [chains, 6],
  [longOneLiner, 3],
  [quirky, 4],
];

export function generateCorpus(count = COUNT, seed = SEED): string[] {
  const r = random(seed);
  const weighted = FAMILIES.flatMap(([template, weight]) => Array<Template>(weight).fill(template));
  const seen = new Set<string>();
  while (seen.size < count) seen.add(r.pick(weighted)(r));
  return [...seen];
}

if (import.meta.main) {
  const commands = generateCorpus();
  writeFileSync(CORPUS_FILE, `${JSON.stringify(commands, null, 1)}\n`);
  const multiLine = commands.filter((command) => command.includes("\n")).length;
  const longest = Math.max(...commands.map((command) => command.length));
  console.log(`${commands.length} commands (${multiLine} multi-line, longest ${longest} chars) → ${CORPUS_FILE}`);
}

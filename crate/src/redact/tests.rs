//! Table tests: one input, one expected output. Fake secrets are assembled from pieces so that this file does
//! not itself look like a leak to push-protection scanners.

use super::echoes::ECHO_BUDGET;
use super::*;
use crate::bytes::find_long;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Pieces that reach the general rules (labels of several words, vendors' names, bare keys, tokens led by what
/// they are), shared by the scan tests and the differential tests.
pub(crate) const GENERAL_PIECES: &[&str] = &[
    "password ",
    "PASSWORD('",
    "passwd ",
    "requirepass ",
    "masterauth ",
    " BY ",
    "IDENTIFIED BY ",
    "rootpass12",
    "policy:",
    "api key",
    "browser key = ",
    "Key=",
    "key: ",
    "heroku: ",
    "\"datadog\": \"",
    "vendor=algolia value=",
    "api-",
    "token_",
    "aB3dE5fG7hJ9kL2mN4pQ6rS",
    "a52a4f2c-7d1e-4b8a-9c3f-1e2d3c4b5a69",
];

/// The random-test generator of the redact tests (xorshift32): reproducible runs without a dependency.
pub(crate) fn xorshift(state: &mut u32) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    *state
}

fn r() -> Redactor {
    Redactor::new(&RedactOptions::default()).0
}

fn text(s: &str) -> String {
    match r().redact_text(s) {
        Some((out, _)) => out,
        None => s.to_string(),
    }
}

const B62: &str = "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7bC9dE2fG4hJ6kL8mN1pQ3rS5tU7vW9xY2zA4bC6dE8f";

fn body(n: usize) -> String {
    B62.chars().cycle().take(n).collect()
}

#[test]
fn token_shapes() {
    let cases: Vec<(String, &str)> = vec![
        (format!("key AKIA{} here", "Q3RZ7ONQ4XMTW2PB"), "key [REDACTED:aws-access-key-id] here"),
        (format!("k=AIza{}", body(35)), "k=[REDACTED:gcp-api-key]"),
        (format!("push with gh{}_{}", "p", body(36)), "push with [REDACTED:github-token]"),
        (format!("github_{}_{}", "pat", body(82)), "[REDACTED:github-fine-grained-pat]"),
        (format!("gl{}-{}", "pat", body(20)), "[REDACTED:gitlab-token]"),
        (format!("xo{}-1234567890-{}", "xb", body(24)), "[REDACTED:slack-token]"),
        (format!("sk_{}_{}", "live", body(24)), "[REDACTED:stripe-key]"),
        (format!("SK{}", "0123456789abcdef0123456789abcdef"), "[REDACTED:twilio-key]"),
        (format!("S{}.{}.{}", "G", body(22), body(43)), "[REDACTED:sendgrid-api-key]"),
        (format!("sk-{}-{}", "proj", body(48)), "[REDACTED:openai-api-key]"),
        (format!("sk-{}-api03-{}", "ant", body(80)), "[REDACTED:anthropic-api-key]"),
        (format!("np{}_{}", "m", body(36)), "[REDACTED:npm-token]"),
        (format!("py{}-AgEIcHlwaS5vcmc{}", "pi", body(60)), "[REDACTED:pypi-token]"),
        (format!("ey{}.ey{}.{}", "JhbGciOiJIUzI1NiJ9", "JzdWIiOiIxMjM0NTY3ODkwIn0", body(43)), "[REDACTED:jwt]"),
    ];
    for (input, want) in cases {
        assert_eq!(text(&input), want, "input: {input}");
    }
}

#[test]
fn context_rules() {
    let cases: Vec<(&str, &str)> = vec![
        ("postgres://app:s3cr3t-Pw@db.internal:5432/app", "postgres://app:[REDACTED:url-credentials]@db.internal:5432/app"),
        ("curl -H 'Authorization: Bearer abc123def456ghi789'", "curl -H 'Authorization: Bearer [REDACTED:authorization-header]'"),
        ("Authorization: Basic dXNlcjpodW50ZXIy", "Authorization: Basic [REDACTED:authorization-header]"),
        ("DB_PASSWORD=hunter2\nDEBUG=true", "DB_PASSWORD=[REDACTED:secret-assignment]\nDEBUG=true"),
        ("password: hunter2", "password: [REDACTED:secret-assignment]"),
        (r#"{"client_secret":"q8Zt-4kLm9"}"#, r#"{"client_secret":"[REDACTED:secret-assignment]"}"#),
        ("DETAIL:  Key (secret)=(hunter2) already exists.", "DETAIL:  Key (secret)=([REDACTED:db-key-echo]) already exists."),
        ("DETAIL:  Key (email)=(a@b.example) already exists.", "DETAIL:  Key (email)=(a@b.example) already exists."),
        ("Duplicate entry 'hunter2' for key 'users.password'", "Duplicate entry '[REDACTED:db-key-echo]' for key 'users.password'"),
        (
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4+/w==;EndpointSuffix=core.windows.net",
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-connection-string];EndpointSuffix=core.windows.net",
        ),
        ("mysql --password s3cr3tPass9 -u root", "mysql --password [REDACTED:secret-assignment] -u root"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----",
         "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----"),
        (r"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
         r"-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key]\n-----END PRIVATE KEY-----\n"),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
    }
}

#[test]
fn more_vendor_tokens() {
    // (Prefixes split so that no real-looking token sits in the source.)
    let discord = format!("{}.{}.{}", "ODEzMjAzMDAxNzE0MDYxNDc3NQ", "JO3qSK", body(38));
    let telegram_id = "233093066";
    let cases: Vec<(String, String)> = vec![
        (format!("bot.run(\"{discord}\")"), "bot.run(\"[REDACTED:discord-bot-token]\")".into()),
        (
            format!("curl https://api.telegram.org/bot{telegram_id}:AA{}/sendMessage", body(33)),
            format!("curl https://api.telegram.org/bot{telegram_id}:[REDACTED:telegram-bot-token]/sendMessage"),
        ),
        (format!("vault token lookup hv{}.{}", "s", body(90)), "vault token lookup [REDACTED:vault-token]".into()),
        (
            format!("HF_TOKEN={}_{}", "hf", "kxNzJpLYcoFZGsShezJishruHGIkeeRYEr"),
            "HF_TOKEN=[REDACTED:huggingface-token]".into(),
        ),
        (
            format!("Authorization: 'key=AAAASVKzO5X:APA{}b{}'", "91", body(134)),
            "Authorization: 'key=AAAASVKzO5X:[REDACTED:fcm-server-key]'".into(),
        ),
        (format!("'sb_{}_{}'", "secret", body(32)), "'[REDACTED:supabase-secret-key]'".into()),
        (
            format!("AGE-SECRET-{}-1{}", "KEY", "53WAUMKRYTU05J8G2SFJTHXKZCGPYPUXD54S86HGVAKPS9D8Q5PJGYR8TU"),
            "[REDACTED:age-secret-key]".into(),
        ),
        (
            format!("const K: &str = \"lin_{}_{}\";", "api", body(40)),
            "const K: &str = \"[REDACTED:linear-api-key]\";".into(),
        ),
        (
            format!("Mailgun::Client.new('key-{}')", "cc9afe621518bd7917292c1d7e6730ee"),
            "Mailgun::Client.new('[REDACTED:mailgun-api-key]')".into(),
        ),
        // A PEM private key in base64 once more (kubeconfig `client-key-data`); a certificate stays.
        (
            format!(
                "    client-key-data: {}",
                "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBdTFTVTFMZlZMUEhDb3pNeEgyTW8="
            ),
            "    client-key-data: [REDACTED:private-key]".into(),
        ),
        // A GitHub token body without digits (0.2% of them).
        (format!("gh{}_{}", "p", "YKlqBVbLhJuESaSCuQdnirjdDQgkuqKalqFO"), "[REDACTED:github-token]".into()),
    ];
    for (input, want) in cases {
        assert_eq!(text(&input), want, "input: {input}");
    }
}

#[test]
fn secrets_in_code_config_and_sql() {
    let cases: Vec<(&str, &str)> = vec![
        // Typed declarations.
        (r#"const API_KEY: &str = "q8Zt4kLm9vXw2";"#, r#"const API_KEY: &str = "[REDACTED:secret-assignment]";"#),
        (
            r#"let token: &'static str = "q8Zt4kLm9vXw2";"#,
            r#"let token: &'static str = "[REDACTED:secret-assignment]";"#,
        ),
        ("const apiKey: string = 'q8Zt4kLm9vXw2';", "const apiKey: string = '[REDACTED:secret-assignment]';"),
        (r#"val password: String = "hunter2-Prod9""#, r#"val password: String = "[REDACTED:secret-assignment]""#),
        (r#"var password string = "hunter2-Prod9""#, r#"var password string = "[REDACTED:secret-assignment]""#),
        // Letters drawn at random are a password, quoted or not.
        (r#"password="VqOZmRIUOxmXKGTn""#, r#"password="[REDACTED:secret-assignment]""#),
        // ODBC and ADO.NET connection strings.
        ("\"UID=ci-bot;\"\n\"PWD=akGJ_VA17Z5NFGUcRkRPWr;\"", "\"UID=ci-bot;\"\n\"PWD=[REDACTED:secret-assignment];\""),
        ("Server=db;Uid=app;Pwd=q8Zt4kLm9v;", "Server=db;Uid=app;Pwd=[REDACTED:secret-assignment];"),
        ("\"Server=db;Uid=app;Pwd=q8Zt4kLm9v\"", "\"Server=db;Uid=app;Pwd=[REDACTED:secret-assignment]\""),
        // A name and a value as a call's two literals; SQL; the password argument of a login.
        (
            "define( 'DB_PASSWORD', 'OAlzisjIVgb1fhx2KmuxZ1W8vnYzc' );",
            "define( 'DB_PASSWORD', '[REDACTED:secret-assignment]' );",
        ),
        (
            r#"os.Setenv("DD_API_KEY", "53af456ce23cf8be1042cf289b123306")"#,
            r#"os.Setenv("DD_API_KEY", "[REDACTED:secret-assignment]")"#,
        ),
        (
            "CREATE USER 'api'@'%' IDENTIFIED BY 'wTneTIaGUrFSLyISlN';",
            "CREATE USER 'api'@'%' IDENTIFIED BY '[REDACTED:secret-assignment]';",
        ),
        (
            "ALTER ROLE app WITH LOGIN PASSWORD 'q8Zt4kLm9vXw2rT5';",
            "ALTER ROLE app WITH LOGIN PASSWORD '[REDACTED:secret-assignment]';",
        ),
        (
            "await api.login('admin', 'PGhXVGr8kFGaqbZnr4GciQxWtTJjeY');",
            "await api.login('admin', '[REDACTED:secret-assignment]');",
        ),
        (
            "new PDO($dsn, 'jenkins', 'Nmz5vwEK5TO3PCyf9RWevOyQ', [",
            "new PDO($dsn, 'jenkins', '[REDACTED:secret-assignment]', [",
        ),
        (
            r#"DBI->connect("dbi:Pg:dbname=users", 'svc_app', 'rDnVGta16z3azQeSRM')"#,
            r#"DBI->connect("dbi:Pg:dbname=users", 'svc_app', '[REDACTED:secret-assignment]')"#,
        ),
        (
            r#"$secure = ConvertTo-SecureString "Zephyr_cobalt846%" -AsPlainText -Force"#,
            r#"$secure = ConvertTo-SecureString "[REDACTED:command-line-password]" -AsPlainText -Force"#,
        ),
        ("ldap_default_authtok = Sx9-fjq2LmPq", "ldap_default_authtok = [REDACTED:secret-assignment]"),
        // `password <value>`, `requirepass <value>` (`.netrc`, `redis.conf`), for values of 15 word characters or more.
        (
            "machine api.heroku.com\r\n  login petra@example.com\r\n  password 80a9e55b-c2e3-445f-84a1-fa13a4c1f6c5\r\n",
            "machine api.heroku.com\r\n  login petra@example.com\r\n  password [REDACTED:secret-assignment]\r\n",
        ),
        (
            "machine git.example.com login ci password k9Xq2Lm7vPz0w1aB!x\n",
            "machine git.example.com login ci password [REDACTED:secret-assignment]\n",
        ),
        (
            "requirepass d23e0b6ce0c949e02c5b8eba227629bf0615fb0f92e4d9d0ac6679ba41bb9a25\nmaxmemory 2gb",
            "requirepass [REDACTED:secret-assignment]\nmaxmemory 2gb",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
    }
}

#[test]
fn benign_look_alikes_stay() {
    let cases = [
        "commit 3f9a1c2e8b7d6f5a4c3b2a1908f7e6d5c4b3a291",
        "request 550e8400-e29b-41d4-a716-446655440000 failed",
        "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        "tokens: 1532",
        "prompt_tokens=1532 completion_tokens=200",
        r#""public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx0ZXN0a2V5"#,
        "Enter your password: it must be 8 characters",
        "see src/auth/token.rs:12:5 and auth.js:40",
        "password: string",
        "def login(password: str, token: Optional[str] = None):",
        "token = self.token",
        "password = os.environ['DB_PASSWORD']",
        "export GITHUB_TOKEN=${GITHUB_TOKEN}",
        "password: ********",
        "Authorization: Bearer <token>",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "postgres://user:password@localhost/db",
        "https://github.com/org/repo/blob/main/src/secret.rs",
        // What other tools leave where a secret was, and values still to be filled in.
        r#"{"password":"[REDACTED]","token":"[FILTERED]"}"#,
        r#"Parameters: {"user"=>{"password"=>"[FILTERED]"}}"#,
        "api_token: (hidden)",
        "OPENAI_API_KEY=REPLACE_ME",
        "client_secret = \"replace-with-your-secret\"",
        "GITHUB_TOKEN=INSERT_TOKEN_HERE",
        "SECRET_KEY_BASE=%SECRET_KEY_BASE%",
        // An ARN names a secret; its last field is the secret's name.
        r#""SecretId": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-tlXTaB""#,
        // Masked, elided, or still to be set (GitLab CI, gh, .env.example, compose files).
        "CI_JOB_TOKEN=[MASKED]\nCI_REGISTRY_PASSWORD=[MASKED]",
        "  - Token: gho_************************************",
        "STRIPE_SECRET_KEY=sk_test_...\nSTRIPE_WEBHOOK_SECRET=whsec_…",
        "SESSION_SECRET=replace-with-output-of-openssl-rand-hex-32",
        "  password               = \"CHANGE-ME-IN-CONSOLE\"",
        "      SESSION_SECRET: ${SESSION_SECRET:?required}",
        "# SESSION_SECRET=  (ask in #platform, never commit)",
        "docker build --secret id=npmrc,src=$HOME/.npmrc .",
        // A database's primary key shares the words of Azure's primaryKey.
        r#"{"primaryKey":"user_id","primary_key":true}"#,
        "Model.init({ id: { type: DataTypes.UUID, primaryKey: true } })",
        // A certificate in base64 (kubeconfig), a key id, references to files, grep's `path:line:`, a development
        // default at a loopback host, public keys, cmdlets, words joined by hyphens, the working directory.
        "    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUQ0akNDOHFBREFnRUNBaFFBNTQ3MkcvWkc4VkpW",
        "[user]\n\tsigningkey = 680435364DF314A8",
        "LoadCredential=db-password:/etc/credstore/reports-db-password",
        "~/.aws/credentials:2:credential_process = /usr/local/bin/aws-vault exec prod --json",
        "DATABASE_URL=postgres://postgres:postgres@localhost:5432/orders_dev",
        "CELERY_BROKER_URL=amqp://guest:guest@localhost:5672//",
        "mapboxgl.accessToken = 'pk.eyJ1Ijoicmp5ZG1kZ3AiLCJhIjoidmplcmgya3c5b3Q5a3o4Z2l5aW9najNkbSJ9.EsLCey2CcfCpJUnpXqviLh';",
        "$apiKey = Get-Secret -Name PagerDutyKey -AsPlainText -Vault CorpVault",
        "// public token: URL-restricted, read-only styles",
        "PWD=/home/ci/work\nOLDPWD=/home/ci",
        "let kind: string = 'password';",
        "login('admin', 'Invalid password, try again')",
        "setenv(\"TOKEN_TTL\", \"3600\")",
        "$secure = ConvertTo-SecureString $env:BACKUP_PASSWORD -AsPlainText -Force",
        "key-value store, key-0123456789abcdef (a cache key)",
        "ERROR db: password authentication failed for user \"app\"; password PasswordAuthenticationProvider",
        "see the password requirements: minimum length 12",
        // Three dotted base64 parts whose first is no number (a Discord token's is the bot's id).
        "M2FiY2RlZmdoaWprbG1ub3Bx.abcdef.aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW3xY5zA7bC",
    ];
    for input in cases {
        assert_eq!(text(input), input);
    }
}

#[test]
fn values_that_only_look_like_fill_ins_are_secrets() {
    let cases: Vec<(&str, &str)> = vec![
        (r#"{"password":"[Zq7-x9]"}"#, r#"{"password":"[REDACTED:secret-assignment]"}"#),
        ("DB_PASSWORD=replace9Me", "DB_PASSWORD=[REDACTED:secret-assignment]"),
        ("DB_PASSWORD=%abc%def", "DB_PASSWORD=[REDACTED:secret-assignment]"),
        // A secret key outside an ARN that follows a colon is still a key.
        ("db:password=Zq7xK2mP9w", "db:password=[REDACTED:secret-assignment]"),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
    }
}

#[test]
fn secrets_in_tool_output_layouts() {
    let cases: Vec<(String, String)> = vec![
        // Terraform plan: operators aligned in a column, and a change shown as `"old" -> "new"`.
        (
            r#"      ~ "JWT_SECRET"      = "56AZFXqPLumPn/iVlYrlzOcp" -> "9B5paHTZ4qXKCQKBaZCsc2RW""#.into(),
            r#"      ~ "JWT_SECRET"      = "[REDACTED:secret-assignment]" -> "[REDACTED:secret-assignment]""#.into(),
        ),
        // A token as a URL's user name, with a password beside it.
        (
            format!("url.\"https://gh{}_{}:x-oauth-basic@github.com/\".insteadOf", "p", body(36)),
            "url.\"https://[REDACTED:github-token]:[REDACTED:url-credentials]@github.com/\".insteadOf".into(),
        ),
        // Azure access keys.
        (
            r#""primaryKey": "4nZYdYNWuBtP3Qcv7uyClQ2paO8o7gH1VB0K3Qgr6xQ=","#.into(),
            r#""primaryKey": "[REDACTED:secret-assignment]","#.into(),
        ),
    ];
    for (input, want) in cases {
        assert_eq!(text(&input), want, "input: {input}");
    }
}

#[test]
fn copies_of_a_found_secret_go_too() {
    let sql = "INSERT INTO api_clients (name, client_secret) VALUES ('v2', 'x3zY5eZzATcw7w4GbgHk');\n\
               ERROR 1062 (23000): Duplicate entry 'x3zY5eZzATcw7w4GbgHk' for key 'api_clients.client_secret'";
    let want = "INSERT INTO api_clients (name, client_secret) VALUES ('v2', '[REDACTED:db-key-echo]');\n\
                ERROR 1062 (23000): Duplicate entry '[REDACTED:db-key-echo]' for key 'api_clients.client_secret'";
    assert_eq!(text(sql), want);
    let (_, hits) = r().redact_text(sql).unwrap();
    assert_eq!(hits, vec![Hit { path: "$".into(), rule: "db-key-echo".into(), count: 2 }]);
    // Not a piece of a longer word, and not a secret shorter than 8 bytes.
    assert_eq!(
        text("password=k9Xq2Lm7vPz then k9Xq2Lm7vPz9 and xk9Xq2Lm7vPz"),
        "password=[REDACTED:secret-assignment] then k9Xq2Lm7vPz9 and xk9Xq2Lm7vPz"
    );
    assert_eq!(text("password=Zq7x-9a then Zq7x-9a"), "password=[REDACTED:secret-assignment] then Zq7x-9a");
    // A copy next to a word byte is left, so that its marker cannot make a second pass find something new (a
    // property test found this one: the copy ran into a JWT that its marker would have set apart).
    let pem = "-----BEGIN PRIVATE KEY-----\n-----BEGIN PRIVATE KEY-----\nsk-\\n-----END PRIVATE KEY----------BEGIN \
               PRIVATE KEY-----\nsk-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.";
    let once = text(pem);
    assert_eq!(text(&once), once);
    assert!(once.ends_with("-----BEGIN PRIVATE KEY-----\nsk-eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0."), "{once}");
    // Within a budget of searching: a long text with many distinct secrets is not searched again.
    let secrets: Vec<String> = (0..8).map(|i| format!("k9Xq2Lm7vPz{i:02}")).collect();
    let mut long = String::new();
    for s in &secrets {
        long.push_str(&format!("password={s}\n"));
    }
    long.push_str(&"filler line without anything\n".repeat((ECHO_BUDGET / 8) / 29 + 1));
    long.push_str(&secrets[0]);
    assert!(long.len() * 8 > ECHO_BUDGET);
    assert!(r().redact_text(&long).unwrap().0.ends_with(&secrets[0]));
    let short_enough = long.replacen(&format!("password={}\n", secrets[7]), "", 1);
    assert!(short_enough.len() * 7 <= ECHO_BUDGET);
    assert!(r().redact_text(&short_enough).unwrap().0.ends_with("[REDACTED:secret-assignment]"));
}

#[test]
fn find_long_finds_what_a_naive_search_finds() {
    let mut state = 0x1234_5678u32;
    for round in 0..400 {
        let n = (xorshift(&mut state) % 200) as usize;
        let hay: Vec<u8> = (0..n).map(|_| b"abc"[(xorshift(&mut state) % 3) as usize]).collect();
        let m = 2 + (xorshift(&mut state) % 4) as usize;
        let needle: Vec<u8> = (0..m).map(|_| b"abc"[(xorshift(&mut state) % 3) as usize]).collect();
        for from in 0..=n {
            let naive = (from..n.saturating_sub(m - 1)).find(|&i| hay[i..i + m] == needle[..]);
            assert_eq!(find_long(&hay, &needle, from), naive, "round {round} from {from}");
        }
    }
}

#[test]
fn a_yaml_name_value_pair_names_its_value() {
    let env =
        "    env:\n    - name: DB_PASSWORD\n      value: hunter2-Prod9\n    - name: LOG_LEVEL\n      value: debug-9x\n\
               \x20     - name: \"API_TOKEN\"\n        value: \"k9Xq2Lm7vPz0\"";
    let want = "    env:\n    - name: DB_PASSWORD\n      value: [REDACTED:secret-assignment]\n    - name: LOG_LEVEL\n      value: debug-9x\n\
                \x20     - name: \"API_TOKEN\"\n        value: \"[REDACTED:secret-assignment]\"";
    assert_eq!(text(env), want);
    // The same in a text long enough for the block scan.
    let pad = "log line without anything in it\n".repeat(12);
    assert_eq!(text(&format!("{pad}{env}")), format!("{pad}{want}"));
    // The keys must line up, and the name must be on the line before.
    for input in [
        "- name: DB_PASSWORD\n    value: hunter2-Prod9",
        "- name: DB_PASSWORD\n  image: x\n  value: hunter2-Prod9",
        "- name: DB_PASSWORD\nx value: hunter2-Prod9",
        "value: hunter2-Prod9",
        "- name: LOG_LEVEL\n  value: hunter2-Prod9",
    ] {
        assert_eq!(text(input), input);
    }
}

#[test]
fn a_name_value_pair_names_its_value() {
    let j = |s: &str| r().redact_json(s).map(|(out, hits)| (out, hits[0].path.clone()));
    let har = r#"{"queryString":[{"name":"X-Goog-Expires","value":"900"},{"name":"X-Goog-Signature","value":"d114470b0e0ea3f1cb6f"}]}"#;
    let want = r#"{"queryString":[{"name":"X-Goog-Expires","value":"900"},{"name":"X-Goog-Signature","value":"[REDACTED:url-signature]"}]}"#;
    assert_eq!(j(har), Some((want.to_string(), "$.queryString[1].value".to_string())));
    let env = r#"{"env":[{"name":"DB_PASSWORD","value":"hunter2-Prod"},{"name":"LOG_LEVEL","value":"debug"}]}"#;
    assert_eq!(
        j(env).unwrap().0,
        r#"{"env":[{"name":"DB_PASSWORD","value":"[REDACTED:secret-assignment]"},{"name":"LOG_LEVEL","value":"debug"}]}"#
    );
    // Only the value of the object whose name names a secret, and only a `name`/`key` member names.
    assert!(j(r#"{"items":[{"name":"token","count":3},{"value":"hunter2-Prod"}]}"#).is_none());
    assert!(j(r#"{"title":"DB_PASSWORD","value":"hunter2-Prod"}"#).is_none());
}

#[test]
fn the_value_after_a_key_and_a_space_is_not_an_assignment() {
    let token = format!("pypi-AgEIcHlwaS5vcmc{}", body(60));
    let input = format!("TWINE_USERNAME=__token__ TWINE_PASSWORD={token} twine upload dist/*");
    let want = "TWINE_USERNAME=__token__ TWINE_PASSWORD=[REDACTED:pypi-token] twine upload dist/*";
    assert_eq!(text(&input), want);
    // A base64 value with padding is still a value.
    let padded = "aws_secret_access_key Zm9vYmFyYmF6cXV4cXV1eHpvcmtmb29iYXJiYXo9PQ==";
    assert_eq!(text(padded), "aws_secret_access_key [REDACTED:aws-secret-access-key]");
}

#[test]
fn a_twilio_account_sid_under_a_key_naming_twilio() {
    let sid = format!("AC{}", "0123456789abcdef".repeat(2));
    let j = |s: String| r().redact_json(&s).map(|(out, _)| out);
    assert_eq!(
        j(format!(r#"{{"env":{{"TWILIO_ACCOUNT_SID":"{sid}"}}}}"#)).as_deref(),
        Some(r#"{"env":{"TWILIO_ACCOUNT_SID":"[REDACTED:twilio-key]"}}"#)
    );
    // Under another key an account SID is an identifier.
    assert!(j(format!(r#"{{"account_sid":"{sid}"}}"#)).is_none());
    assert!(j(format!(r#"{{"twilio_note":"{sid} and more"}}"#)).is_none());
}

#[test]
fn command_line_passwords() {
    let m = "[REDACTED:command-line-password]";
    let cases: Vec<(&str, String)> = vec![
        ("mysql -u root -pS3cr3t-Pw9 app", format!("mysql -u root -p{m} app")),
        (
            "docker exec -i db mysql -uroot -p'S3cr3t-Pw9' -e 'select 1'",
            format!("docker exec -i db mysql -uroot -p'{m}' -e 'select 1'"),
        ),
        (
            "curl -sS -u admin:S3cr3t-Pw9 https://ci.internal/api",
            format!("curl -sS -u admin:{m} https://ci.internal/api"),
        ),
        ("sshpass -p S3cr3t-Pw9 ssh -p 2222 deploy@host", format!("sshpass -p {m} ssh -p 2222 deploy@host")),
        ("docker login -u bot -p S3cr3t-Pw9 reg.io", format!("docker login -u bot -p {m} reg.io")),
        ("htpasswd -nb admin S3cr3t-Pw9", format!("htpasswd -nb admin {m}")),
        ("redis-server --port 6380 --requirepass S3cr3t-Pw9", format!("redis-server --port 6380 --requirepass {m}")),
        // The last of a cluster; a variable in an earlier word; `echo … | sudo -S`; a user option before.
        ("curl -ksu ops:S3cr3t-Pw9 https://x", format!("curl -ksu ops:{m} https://x")),
        ("mysqldump -u$(DB_USER) -pS3cr3t-Pw9 app", format!("mysqldump -u$(DB_USER) -p{m} app")),
        ("echo 'S3cr3t-Pw9' | sudo -S systemctl restart app", format!("echo '{m}' | sudo -S systemctl restart app")),
        ("vendor-cli login -u ops -p S3cr3t-Pw9 --region eu", format!("vendor-cli login -u ops -p {m} --region eu")),
        ("bmc-tool -H 10.0.0.9 -U ADMIN -P S3cr3t-Pw9 status", format!("bmc-tool -H 10.0.0.9 -U ADMIN -P {m} status")),
        ("lftp -u deploy,S3cr3t-Pw9 sftp://files", format!("lftp -u deploy,{m} sftp://files")),
        ("rdp-client /u:admin /p:S3cr3t-Pw9 /v:host", format!("rdp-client /u:admin /p:{m} /v:host")),
        ("mysql \\\n  -u app \\\n  -proot", format!("mysql \\\n  -u app \\\n  -p{m}")),
        // Left alone: other programs' options, a password the program asks for, placeholders, the next option.
        ("ssh -p 2222 deploy@host && mkdir -p out", "ssh -p 2222 deploy@host && mkdir -p out".into()),
        ("mysql -u root -p app_production", "mysql -u root -p app_production".into()),
        ("curl -u admin https://ci.internal/api", "curl -u admin https://ci.internal/api".into()),
        ("mysql -uroot -p\"$MYSQL_ROOT_PASSWORD\"", "mysql -uroot -p\"$MYSQL_ROOT_PASSWORD\"".into()),
        (
            "mongosh -u admin -p --authenticationDatabase admin",
            "mongosh -u admin -p --authenticationDatabase admin".into(),
        ),
        ("ps -u app -p 4242 -o rss", "ps -u app -p 4242 -o rss".into()),
        ("docker run -u 1000 -p 8080:80 app", "docker run -u 1000 -p 8080:80 app".into()),
        ("msbuild App.sln /p:Configuration=Release", "msbuild App.sln /p:Configuration=Release".into()),
        ("mysql -u [username] -p[password] [database]", "mysql -u [username] -p[password] [database]".into()),
        ("apksigner sign --ks-pass env:KS_PASS app.apk", "apksigner sign --ks-pass env:KS_PASS app.apk".into()),
        ("echo \"$SUDO_PASS\" | sudo -S true", "echo \"$SUDO_PASS\" | sudo -S true".into()),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
    }
}

#[test]
fn idempotent_and_markers_are_inert() {
    let inputs = [
        "postgres://app:s3cr3t-Pw@db/app and password: hunter2 and DETAIL: Key (token)=(abc)",
        "[REDACTED:jwt] password=[REDACTED:secret-assignment] token: \"[REDACTED:secret-assignment]\"",
    ];
    for input in inputs {
        let once = text(input);
        assert_eq!(text(&once), once);
    }
    assert!(r().redact_text("[REDACTED:github-token]").is_none());
}

#[test]
fn json_values() {
    let j = |s: &str| r().redact_json(s);
    let (out, hits) = j(r#"{"env":{"API_KEY":"k9Xq2-Lm7vPz","HOME":"/root"},"args":["--token","abc"]}"#).unwrap();
    assert_eq!(out, r#"{"env":{"API_KEY":"[REDACTED:secret-assignment]","HOME":"/root"},"args":["--token","abc"]}"#);
    assert_eq!(hits, vec![Hit { path: "$.env.API_KEY".into(), rule: "secret-assignment".into(), count: 1 }]);

    let (out, _) = j(r#"{"headers":{"Authorization":"Bearer k9Xq2Lm7vPz0w1"}}"#).unwrap();
    assert_eq!(out, r#"{"headers":{"Authorization":"Bearer [REDACTED:authorization-header]"}}"#);

    // Escapes stay whole: the secret spans a \u escape and is replaced as a unit.
    let (out, hits) = j(r#"["x\n\u0070assword=hunter2\tz"]"#).unwrap();
    assert_eq!(out, r#"["x\n\u0070assword=[REDACTED:secret-assignment]\tz"]"#);
    assert_eq!(hits[0].path, "$[0]");

    assert!(j(r#"{"public_key":"k9Xq2Lm7vPz","token_count":12,"password":""}"#).is_none());
    assert!(r().redact_json_member("password", r#""hunter""#).is_some());
    assert!(r().redact_json_member("note", r#""hunter""#).is_none());
}

#[test]
fn xml_elements_and_attributes() {
    let m = "[REDACTED:secret-assignment]";
    let settings =
        "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>S3cr3t-Pw9</password>\n</server>";
    let cases: Vec<(&str, String)> = vec![
        (settings, settings.replace("S3cr3t-Pw9", m)),
        ("<apiKey> k9Xq2Lm7vPz0w1aB </apiKey>", format!("<apiKey> {m} </apiKey>")),
        (
            r#"<add key="ClearTextPassword" value="S3cr3t-Pw9" />"#,
            format!(r#"<add key="ClearTextPassword" value="{m}" />"#),
        ),
        (r#"<env name="API_TOKEN" value="k9Xq2Lm7vPz0w1aB"/>"#, format!(r#"<env name="API_TOKEN" value="{m}"/>"#)),
        // Left alone: placeholders, names that name no secret, other uses of `>`.
        ("<password>${env.NEXUS_PASSWORD}</password>", "<password>${env.NEXUS_PASSWORD}</password>".into()),
        ("<passwordPolicy>strict</passwordPolicy>", "<passwordPolicy>strict</passwordPolicy>".into()),
        (r#"<input type="password" name="password">"#, r#"<input type="password" name="password">"#.into()),
        (r#"<add key="Timeout" value="30"/>"#, r#"<add key="Timeout" value="30"/>"#.into()),
        ("GET /token -> 200; cat secret > out.txt", "GET /token -> 200; cat secret > out.txt".into()),
        ("<password>\nS3cr3t-Pw9\n</password>", "<password>\nS3cr3t-Pw9\n</password>".into()),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
        assert_eq!(text(&want), want, "idempotent: {want}");
    }
}

#[test]
fn command_arguments_in_json_arrays() {
    // An array of strings read as a command's arguments: each element with the program and the ones before it.
    let m = "[REDACTED:command-line-password]";
    let cases: Vec<(&str, String)> = vec![
        (r#"{"args":["mysql","-u","root","-pS3cr3t-Pw9"]}"#, format!(r#"{{"args":["mysql","-u","root","-p{m}"]}}"#)),
        (r#"["redis-server","--requirepass","S3cr3t-Pw9"]"#, format!(r#"["redis-server","--requirepass","{m}"]"#)),
        (r#"["cf","login","-u","ci","-p","S3cr3t-Pw9"]"#, format!(r#"["cf","login","-u","ci","-p","{m}"]"#)),
        (r#"["--password","S3cr3t-Pw9","-v"]"#, r#"["--password","[REDACTED:secret-assignment]","-v"]"#.to_string()),
        // Left alone: what the program asks for, other programs' options, numbers, non-argv arrays.
        (r#"["mysql","-u","root","-p","app"]"#, r#"["mysql","-u","root","-p","app"]"#.into()),
        (r#"["ssh","-p","2222","host"]"#, r#"["ssh","-p","2222","host"]"#.into()),
        (r#"["ps","-u","app","-p","4242"]"#, r#"["ps","-u","app","-p","4242"]"#.into()),
        (r#"["sshpass","-p","a b c","ssh"]"#, r#"["sshpass","-p","a b c","ssh"]"#.into()),
    ];
    for (input, want) in cases {
        let out = r().redact_json(input).map_or(input.to_string(), |(out, _)| out);
        assert_eq!(out, want, "input: {input}");
        assert!(r().redact_json(&out).is_none(), "idempotent: {out}");
    }
}

#[test]
fn hits_merge_by_path_and_rule_in_order_of_first_occurrence() {
    // More distinct (path, rule) pairs than the linear search holds, revisited out of order.
    let fields: Vec<String> =
        (0..40).map(|i| format!(r#""f{i}":"password=hunter{i}x token=k9Xq2Lm7vPz{i}""#)).collect();
    let doc = format!("{{{},{}}}", fields.join(","), fields[..5].join(",").replace("\"f", "\"g"));
    let (_, hits) = r().redact_json(&format!(r#"{{"a":{doc},"b":{doc}}}"#)).unwrap();
    assert_eq!(hits.len(), 2 * 45);
    assert_eq!(hits[0], Hit { path: "$.a.f0".into(), rule: "secret-assignment".into(), count: 2 });
    assert_eq!(hits[45].path, "$.b.f0");
    assert!(hits.iter().all(|h| h.count == 2 && h.rule == "secret-assignment"), "{hits:?}");
    let mut paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    paths.dedup();
    assert_eq!(paths.len(), 90);

    let mut merged = Hits::default();
    for round in 0..3 {
        for i in 0..30 {
            merged.add(&format!("$.k{}", i % 20), if i < 20 { Rule::Jwt } else { Rule::NpmToken });
        }
        assert_eq!(merged.list.len(), 30, "round {round}");
    }
    let v = merged.into_vec();
    assert_eq!((v[0].path.as_str(), v[0].rule.as_str(), v[0].count), ("$.k0", "jwt", 3));
    assert_eq!((v[29].path.as_str(), v[29].rule.as_str(), v[29].count), ("$.k9", "npm-token", 3));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 100_000;
    let mut s = "[".repeat(depth);
    s.push_str(r#"{"password":"hunter2x"}"#);
    s.push_str(&"]".repeat(depth));
    let (out, hits) = r().redact_json(&s).unwrap();
    assert!(out.contains("[REDACTED:secret-assignment]"));
    assert_eq!(hits.len(), 1);
}

#[test]
fn options() {
    let (red, warnings) = Redactor::new(&RedactOptions {
        enabled: true,
        patterns: vec![r"corp_[a-z0-9]{12}".into(), "(".into(), r"session=(\w+)".into()],
        allow: vec!["hunter2".into()],
        allow_patterns: vec![r"^test-".into()],
    });
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (out, _) = red.redact_text("id corp_abcdef123456 session=zz9 password=hunter2 token=test-abc123").unwrap();
    assert_eq!(out, "id [REDACTED:custom-1] session=[REDACTED:custom-3] password=hunter2 token=test-abc123");
    let off = Redactor::new(&RedactOptions { enabled: false, ..RedactOptions::default() }).0;
    assert!(off.redact_text("password=hunter2").is_none());
    assert!(!off.secret_key("password"));
}

#[test]
fn hits_merge_as_a_plain_merge_does() {
    // Past LINEAR distinct (path, rule) pairs the index takes over: compare with a plain merge, with paths met
    // again after others and rules shared between paths.
    let rules = [Rule::GithubToken, Rule::SecretAssignment, Rule::Jwt, Rule::Custom(1), Rule::Custom(2)];
    let mut state = 0x9e37_79b9u32;
    for round in 0..50 {
        let mut hits = Hits::default();
        let mut naive: Vec<(String, Rule, usize)> = Vec::new();
        for _ in 0..(xorshift(&mut state) % 200) {
            let path = format!("$.f{}", xorshift(&mut state) % (1 + round % 12));
            let rule = rules[(xorshift(&mut state) % rules.len() as u32) as usize];
            hits.add(&path, rule);
            match naive.iter_mut().find(|(p, r, _)| *p == path && *r == rule) {
                Some(h) => h.2 += 1,
                None => naive.push((path, rule, 1)),
            }
        }
        let got: Vec<(String, String, usize)> =
            hits.into_vec().into_iter().map(|h| (h.path, h.rule, h.count)).collect();
        let want: Vec<(String, String, usize)> =
            naive.into_iter().map(|(p, r, n)| (p, r.id().into_owned(), n)).collect();
        assert_eq!(got, want, "round {round}");
    }
}

#[test]
fn labels_vendors_and_random_keys() {
    let m = "[REDACTED:secret-assignment]";
    let v = "aB3dE5fG7hJ9kL2mN4pQ6rS";
    let uuid = "a52a4f2c-7d1e-4b8a-9c3f-1e2d3c4b5a69";
    let cases: Vec<(String, String)> = vec![
        // A label of several words before the operator.
        (format!("api key = {v}"), format!("api key = {m}")),
        (format!("Your new API key: {v}"), format!("Your new API key: {m}")),
        (format!("  # the vendor's browser key = WB-{v}"), format!("  # the vendor's browser key = {m}")),
        (format!("heroku api key: {uuid}"), format!("heroku api key: {m}")),
        // A vendor's name in the key, or as the only label (then the value must look like a credential).
        (format!("ALGOLIA_KEY={v}"), format!("ALGOLIA_KEY={m}")),
        (format!("config.mailchimpKey = \"{v}-us14\";"), format!("config.mailchimpKey = \"{m}\";")),
        (format!("heroku: {uuid}"), format!("heroku: {m}")),
        (format!(r#"{{"datadog": "{v}"}}"#), format!(r#"{{"datadog": "{m}"}}"#)),
        // A bare key with a value drawn at random, and a value next to a vendor's name.
        (format!("[DEBUG] Using Key={v}"), format!("[DEBUG] Using Key={m}")),
        (format!("vendor=algolia value={v}"), format!("vendor=algolia value={m}")),
    ];
    for (input, want) in cases {
        assert_eq!(text(&input), want, "input: {input}");
    }
    let (out, _) = r().redact_json(&format!(r#"{{"key":"{v}","ttl":300}}"#)).unwrap();
    assert_eq!(out, format!(r#"{{"key":"{m}","ttl":300}}"#));
    for benign in [
        "key=user:1234:profile",
        "key: 3f9a1c2e8b7d6f5a4c3b2a1908f7e6d5c4b3a291",
        "Key=550e8400-e29b-41d4-a716-446655440000",
        "sort key = created_at_desc",
        "the primary key = id",
        "heroku app: my-app-staging",
        "heroku: ~/.netrc has the credentials",
        "datadog: enabled",
        "api key: <your api key>",
        "api key = process.env.WIDGET_KEY",
        "license key: required for the pro plan",
        "const applicationServerKey = 'BpTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa';",
        "DETAIL:  Key (key)=(aB3dE5fG7hJ9kL2mN4pQ6rS) already exists.",
    ] {
        assert_eq!(text(benign), benign);
    }
    assert!(r().redact_json(r#"{"key":"user:1234:profile","heroku":"my-app-staging"}"#).is_none());
    // A bare key or a vendor's name alone names no secret by itself.
    assert!(!r().secret_key("key") && !r().secret_key("heroku") && r().secret_key("heroku_api_key"));
}

#[test]
fn a_bare_key_before_a_token_leaves_it_to_the_token_rule() {
    let gh = format!("ghp_{}", body(36));
    let tok = format!("glrt-{}", body(20));
    let gl = format!("{tok}+x==");
    let cases = [
        (format!("using key={gh} ok"), "using key=[REDACTED:github-token] ok"),
        (format!("account key={gh};EndpointSuffix=x"), "account key=[REDACTED:github-token];EndpointSuffix=x"),
        // An Azure label reads the value to `;`, past where the token ends.
        (format!("shared access key={tok},more;y"), "shared access key=[REDACTED:azure-connection-string];y"),
        (format!("account key={tok}.;y"), "account key=[REDACTED:azure-connection-string];y"),
        (format!("using key={gl};y"), "using key=[REDACTED:secret-assignment];y"),
        ("the private key=-----BEGIN".into(), "the private key=-----BEGIN"),
    ];
    for (input, want) in cases {
        assert_eq!(text(&input), want, "input: {input}");
    }
}

#[test]
fn passwords_after_a_keyword_need_15_word_characters() {
    let m = "[REDACTED:secret-assignment]";
    let cases: Vec<(&str, String)> = vec![
        (
            "CREATE USER 'app'@'%' IDENTIFIED BY 'r00tPass12xKq9Lw';",
            format!("CREATE USER 'app'@'%' IDENTIFIED BY '{m}';"),
        ),
        ("requirepass Tr0ub4dor3Kx9Lm2Qw", format!("requirepass {m}")),
        ("passwd Qaz2wsx9Edc4rfv_Tgb6", format!("passwd {m}")),
    ];
    for (input, want) in cases {
        assert_eq!(text(input), want, "input: {input}");
    }
    // Shorter values are not looked at after a keyword without an operator (see docs/redaction.md).
    for left in [
        "password s3cr3t99",
        "IDENTIFIED BY 'rootpass12'",
        "requirepass Tr0ub4dor3",
        "vault kv get -field=password secret/db",
    ] {
        assert_eq!(text(left), left);
    }
}

#[test]
fn tokens_led_by_what_they_are_and_tokens_in_credential_files() {
    let hex = "3f9a1c2e8b7d6f5a4c3b2a1908f7e6d5c4b3a291";
    assert_eq!(text(&format!("X-Widget: api-{hex}")), "X-Widget: [REDACTED:generic-api-key]");
    assert_eq!(text("export W=token_aB3dE5fG7hJ9kL2mN4pQ6rS8tU1v"), "export W=[REDACTED:generic-api-key]");
    for benign in [
        "api-gateway-deployment-7f9c5b".to_string(),
        "key-value-store-partition-0001".to_string(),
        format!("cache key-{hex}"),
        "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="
            .to_string(),
    ] {
        assert_eq!(text(&benign), benign);
    }
    let gh = format!("gh{}_{}", "p", body(36));
    assert_eq!(text(&format!("<secret>{gh}</secret>")), "<secret>[REDACTED:github-token]</secret>");
    assert_eq!(
        text("<privateKey>MIIEvQIBADANBgkqhkiG9w0BAQEF</privateKey>"),
        "<privateKey>[REDACTED:private-key]</privateKey>"
    );
}

#[test]
fn an_unseal_key_after_its_label_whatever_bytes_follow() {
    // The look back for a key's start is bounded (binary output read as text holds long runs of key bytes, and
    // each start in one once looked back over all of it): what is redacted is the same.
    let key = "p/ERVTmZhnr0suulCaa+GkydYjGPfX2L9KAU+89S+4Sw";
    assert!(!text(&format!("Unseal Key 1: {key}\n")).contains(key));
    let long = format!("{}/{}+{}", body(150), body(150), body(150));
    let out = text(&format!("Unseal Key 1: {long}\n"));
    assert!(!out.contains(&long[..40]) && !out.contains(&long[long.len() - 40..]), "{out}");
}

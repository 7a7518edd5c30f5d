//! The rule ids: what each redaction was for, as the marker `[REDACTED:<id>]` and the entry's `redacted` list name it.
//! One line per rule, with what it finds, is docs/redaction.md (a test keeps the two in step).

use std::borrow::Cow;

/// What a redaction was for. `id()` is what goes into the marker and the entry's `redacted` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
// Each built-in rule is described, by its id, in docs/redaction.md: crate/tests/rule_catalogue.rs holds the two to
// one list, so the variants carry no doc comment of their own.
#[allow(missing_docs)]
pub enum Rule {
    AwsAccessKeyId,
    AwsSecretAccessKey,
    GcpApiKey,
    PrivateKey,
    AzureConnectionString,
    GithubToken,
    GithubFineGrainedPat,
    GitlabToken,
    SlackToken,
    SlackWebhook,
    StripeKey,
    TwilioKey,
    SendgridApiKey,
    OpenaiApiKey,
    AnthropicApiKey,
    NpmToken,
    PypiToken,
    Jwt,
    UrlCredentials,
    UrlSignature,
    AuthorizationHeader,
    BearerToken,
    SecretAssignment,
    DbKeyEcho,
    CommandLinePassword,
    DiscordBotToken,
    TelegramBotToken,
    VaultToken,
    HuggingfaceToken,
    FcmServerKey,
    SupabaseSecretKey,
    AgeSecretKey,
    LinearApiKey,
    MailgunApiKey,
    GenericApiKey,
    VendorToken,
    PasswordHash,
    WebhookUrl,
    /// A user-supplied pattern; the number is its 1-based position in `RedactOptions::patterns`.
    Custom(u16),
}

/// Every built-in rule, in the order the documentation lists them.
pub const BUILTIN_RULES: &[Rule] = &[
    Rule::AwsAccessKeyId,
    Rule::AwsSecretAccessKey,
    Rule::GcpApiKey,
    Rule::PrivateKey,
    Rule::AzureConnectionString,
    Rule::GithubToken,
    Rule::GithubFineGrainedPat,
    Rule::GitlabToken,
    Rule::SlackToken,
    Rule::SlackWebhook,
    Rule::StripeKey,
    Rule::TwilioKey,
    Rule::SendgridApiKey,
    Rule::OpenaiApiKey,
    Rule::AnthropicApiKey,
    Rule::NpmToken,
    Rule::PypiToken,
    Rule::Jwt,
    Rule::UrlCredentials,
    Rule::UrlSignature,
    Rule::AuthorizationHeader,
    Rule::BearerToken,
    Rule::SecretAssignment,
    Rule::DbKeyEcho,
    Rule::CommandLinePassword,
    Rule::DiscordBotToken,
    Rule::TelegramBotToken,
    Rule::VaultToken,
    Rule::HuggingfaceToken,
    Rule::FcmServerKey,
    Rule::SupabaseSecretKey,
    Rule::AgeSecretKey,
    Rule::LinearApiKey,
    Rule::MailgunApiKey,
    Rule::GenericApiKey,
    Rule::VendorToken,
    Rule::PasswordHash,
    Rule::WebhookUrl,
];

impl Rule {
    /// The rule's id, as markers and redaction summaries name it (`custom-<n>` for a user pattern).
    pub fn id(self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Rule::AwsAccessKeyId => "aws-access-key-id",
            Rule::AwsSecretAccessKey => "aws-secret-access-key",
            Rule::GcpApiKey => "gcp-api-key",
            Rule::PrivateKey => "private-key",
            Rule::AzureConnectionString => "azure-connection-string",
            Rule::GithubToken => "github-token",
            Rule::GithubFineGrainedPat => "github-fine-grained-pat",
            Rule::GitlabToken => "gitlab-token",
            Rule::SlackToken => "slack-token",
            Rule::SlackWebhook => "slack-webhook",
            Rule::StripeKey => "stripe-key",
            Rule::TwilioKey => "twilio-key",
            Rule::SendgridApiKey => "sendgrid-api-key",
            Rule::OpenaiApiKey => "openai-api-key",
            Rule::AnthropicApiKey => "anthropic-api-key",
            Rule::NpmToken => "npm-token",
            Rule::PypiToken => "pypi-token",
            Rule::Jwt => "jwt",
            Rule::UrlCredentials => "url-credentials",
            Rule::UrlSignature => "url-signature",
            Rule::AuthorizationHeader => "authorization-header",
            Rule::BearerToken => "bearer-token",
            Rule::SecretAssignment => "secret-assignment",
            Rule::DbKeyEcho => "db-key-echo",
            Rule::CommandLinePassword => "command-line-password",
            Rule::DiscordBotToken => "discord-bot-token",
            Rule::TelegramBotToken => "telegram-bot-token",
            Rule::VaultToken => "vault-token",
            Rule::HuggingfaceToken => "huggingface-token",
            Rule::FcmServerKey => "fcm-server-key",
            Rule::SupabaseSecretKey => "supabase-secret-key",
            Rule::AgeSecretKey => "age-secret-key",
            Rule::LinearApiKey => "linear-api-key",
            Rule::MailgunApiKey => "mailgun-api-key",
            Rule::GenericApiKey => "generic-api-key",
            Rule::VendorToken => "vendor-token",
            Rule::PasswordHash => "password-hash",
            Rule::WebhookUrl => "webhook-url",
            Rule::Custom(n) => return Cow::Owned(format!("custom-{n}")),
        })
    }
}

/// Appends `[REDACTED:<rule-id>]`.
pub fn push_marker(out: &mut String, rule: Rule) {
    out.push_str("[REDACTED:");
    out.push_str(&rule.id());
    out.push(']');
}

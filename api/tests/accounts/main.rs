//! The accounts API end to end: real SQLite log and read database, the projector running, the
//! dev mailbox for codes, a fake Google (its own RSA key and JWKS server), real wallet signatures.

mod helpers;
#[path = "../support/mod.rs"]
mod support;

use axum::http::StatusCode;
use helpers::*;
use serde_json::json;

// ---------------------------------------------------------------- sign-up and verification

#[tokio::test]
async fn signing_up_mails_a_code_that_verifies_the_account_and_signs_in() {
    let app = TestApp::new().await;

    let answer = app.register("Alice@Example.com", "alice").await.expect(200);
    assert!(!answer.message().is_empty());
    let code = app.code("alice@example.com").await;
    assert!(code.len() == 6 && code.chars().all(|c| c.is_ascii_digit()), "{code}");
    let mailbox = std::fs::read_dir(app.dir.path().join("data/mailbox")).unwrap().count();
    assert_eq!(mailbox, 1, "one JSON file per message");

    let verified = app
        .json("POST", "/api/auth/verifyaccount", None, json!({ "verificationCode": code, "email": "alice@example.com" }))
        .await
        .expect(200);
    let token = verified.body()["accessToken"].as_str().unwrap();
    let profile = app.my_profile(token).await;
    assert_eq!(profile["email"], "alice@example.com");
    assert_eq!(profile["username"], "alice");
    assert_eq!(profile["fullName"], "Test User");
    assert_eq!(profile["authProvider"], "EMAIL");
    assert_eq!(profile["connectedWallet"], json!([]));
    assert_eq!(profile["avatar"], "");
}

#[tokio::test]
async fn the_code_may_arrive_as_a_number_and_a_used_code_finds_the_account_already_verified() {
    let app = TestApp::new().await;
    app.register("num@example.com", "numbers").await.expect(200);
    let code: u64 = app.code("num@example.com").await.parse().unwrap();
    let verify = json!({ "verificationCode": code, "email": "num@example.com" });

    app.json("POST", "/api/auth/verifyaccount", None, verify.clone()).await.expect(200);
    let again = app.json("POST", "/api/auth/verifyaccount", None, verify).await.expect(200);

    assert_eq!(again.message(), "User is already verified");
    assert_eq!(again.body(), &json!(null));
}

#[tokio::test]
async fn registration_validates_every_field_and_stores_nothing_when_refused() {
    let app = TestApp::new().await;
    let before = app.event_count().await;
    let good = json!({ "email": "v@example.com", "fullName": "V", "username": "valid", "password": PASSWORD, "confirmPassword": PASSWORD });
    let with = |field: &str, value: serde_json::Value| {
        let mut body = good.clone();
        body[field] = value;
        body
    };
    let cases = [
        (with("email", json!("not-an-email")), "email: Enter a valid email"),
        (with("email", json!("")), "email: Required"),
        (with("fullName", json!(" ")), "fullName: Required"),
        (with("username", json!("")), "username: Required"),
        (with("confirmPassword", json!("something else")), "Password doesn't match"),
    ];
    for (body, message) in cases {
        let answer = app.json("POST", "/api/auth/register", None, body).await.expect(400);
        assert_eq!(answer.message(), message);
    }
    let short = app.json("POST", "/api/auth/register", None, with("password", json!("short"))).await.expect(400);
    assert!(short.message().starts_with("password:"), "{}", short.message());

    assert_eq!(app.event_count().await, before, "no event for a refused sign-up");
    assert!(app.mails("v@example.com").await.is_empty());
}

#[tokio::test]
async fn malformed_json_wrong_types_and_missing_fields_answer_400_in_the_envelope_naming_the_problem() {
    let app = TestApp::new().await;

    let broken = app.raw("POST", "/api/auth/register", None, "application/json", "{\"email\": ").await.expect(400);
    assert!(broken.message().contains("JSON"), "{}", broken.message());

    let wrong_type = app.json("POST", "/api/auth/login", None, json!({ "email": 5, "password": "x" })).await.expect(400);
    assert!(wrong_type.message().contains("email") && wrong_type.message().contains("invalid type"), "{}", wrong_type.message());

    let missing = app.json("POST", "/api/auth/login", None, json!({ "email": "a@example.com" })).await.expect(400);
    assert!(missing.message().contains("password"), "{}", missing.message());

    let empty = app.raw("POST", "/api/auth/login", None, "application/json", "").await.expect(400);
    assert!(empty.message().contains("empty"), "{}", empty.message());

    let bad_query = app.get("/api/auth/checkusername?username=ab", None).await.expect(400);
    assert!(bad_query.message().starts_with("username:"), "{}", bad_query.message());

    let not_multipart = app
        .raw("PUT", "/api/account/myprofile", Some(&app.signed_up("m@example.com", "multi").await), "application/json", "{}")
        .await
        .expect(400);
    assert!(not_multipart.message().contains("multipart"), "{}", not_multipart.message());
}

#[tokio::test]
async fn forms_are_accepted_where_json_is() {
    let app = TestApp::new().await;
    app.signed_up("form@example.com", "former").await;

    let answer = app
        .raw(
            "POST",
            "/api/auth/login",
            None,
            "application/x-www-form-urlencoded",
            format!("email=form%40example.com&password={}", urlencode(PASSWORD)),
        )
        .await
        .expect(200);

    assert!(answer.body()["accessToken"].is_string());
}

#[tokio::test]
async fn a_taken_email_or_username_is_409_whatever_its_case() {
    let app = TestApp::new().await;
    app.register("taken@example.com", "Taken").await.expect(200);

    let same_email = app.register("TAKEN@example.com", "other").await.expect(409);
    assert_eq!(same_email.message(), "Email is already registered");
    let same_name = app.register("other@example.com", "taken").await.expect(409);
    assert_eq!(same_name.message(), "Username is not Available");
}

#[tokio::test]
async fn of_two_concurrent_sign_ups_for_one_username_exactly_one_wins() {
    let app = TestApp::new().await;

    let (a, b) = tokio::join!(app.register("first@example.com", "race"), app.register("second@example.com", "RACE"));

    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{} / {}", a.json, b.json);
    let loser = if a.status == StatusCode::CONFLICT { a } else { b };
    assert_eq!(loser.message(), "Username is not Available");
}

#[tokio::test]
async fn checking_a_username_is_case_insensitive_and_ones_own_name_is_available() {
    let app = TestApp::new().await;
    let token = app.signed_up("c@example.com", "Carol").await;

    let free = app.get("/api/auth/checkusername?username=dave", None).await.expect(200);
    assert_eq!(free.message(), "Username is Available");
    let taken = app.get("/api/auth/checkusername?username=CAROL", None).await.expect(200);
    assert_eq!(taken.message(), "Username is not Available");
    let own = app.get("/api/auth/checkusername?username=carol", Some(&token)).await.expect(200);
    assert_eq!(own.message(), "Username is Available");
    let missing = app.get("/api/auth/checkusername", None).await.expect(400);
    assert_eq!(missing.message(), "username: Required");
}

#[tokio::test]
async fn wrong_codes_are_counted_and_after_five_the_code_is_dead() {
    let app = TestApp::new().await;
    app.register("w@example.com", "wrong").await.expect(200);
    let code = app.code("w@example.com").await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let verify = |c: &str| json!({ "verificationCode": c, "email": "w@example.com" });

    let first = app.json("POST", "/api/auth/verifyaccount", None, verify(wrong)).await.expect(400);
    assert_eq!(first.message(), "Invalid verification code; 4 attempts left");
    for _ in 0..4 {
        app.json("POST", "/api/auth/verifyaccount", None, verify(wrong)).await.expect(400);
    }
    let dead = app.json("POST", "/api/auth/verifyaccount", None, verify(&code)).await.expect(400);
    assert_eq!(dead.message(), "Too many wrong attempts; request a new verification code");

    // Logging in with the right password sends a new code, which works.
    app.login("w@example.com", PASSWORD).await.expect(403);
    let fresh = app.code("w@example.com").await;
    app.json("POST", "/api/auth/verifyaccount", None, verify(&fresh)).await.expect(200);
}

#[tokio::test]
async fn an_expired_code_and_a_non_numeric_code_are_refused() {
    use domain::accounts::{CodePurpose, UserEvent, repo, user_stream};
    let app = TestApp::new().await;
    app.register("old@example.com", "oldie").await.expect(200);
    let user_id = repo::find(app.state.store.as_ref(), domain::accounts::ClaimKind::Email, "old@example.com").await.unwrap().unwrap();
    // A code that expired a minute ago, as if issued 16 minutes back.
    let expired = UserEvent::VerificationCodeIssued {
        purpose: CodePurpose::Account,
        code_hash: app.state.accounts.keys.digest("ACCOUNT", user_id, "424242"),
        expires_at: chrono::Utc::now() - chrono::Duration::minutes(1),
        attempts_allowed: 5,
    };
    app.state
        .store
        .append(&user_stream(user_id), domain::ExpectedVersion::Any, vec![expired.to_new_event(Default::default()).unwrap()])
        .await
        .unwrap();

    let answer = app
        .json("POST", "/api/auth/verifyaccount", None, json!({ "verificationCode": "424242", "email": "old@example.com" }))
        .await
        .expect(400);
    assert_eq!(answer.message(), "Verification code has expired; request a new one");
    let letters = app
        .json("POST", "/api/auth/verifyaccount", None, json!({ "verificationCode": "12ab", "email": "old@example.com" }))
        .await
        .expect(400);
    assert_eq!(letters.message(), "verificationCode: Verification code must be a number");
}

// ---------------------------------------------------------------- login and tokens

#[tokio::test]
async fn login_refuses_wrong_passwords_and_unknown_emails_alike() {
    let app = TestApp::new().await;
    app.signed_up("l@example.com", "logan").await;

    let wrong = app.login("l@example.com", "not the password").await.expect(401);
    let unknown = app.login("nobody@example.com", PASSWORD).await.expect(401);
    assert_eq!(wrong.message(), "Invalid email or password");
    assert_eq!(unknown.message(), "Invalid email or password");

    let right = app.login("L@Example.com", PASSWORD).await.expect(200);
    assert!(right.body()["accessToken"].is_string());
}

#[tokio::test]
async fn an_unverified_login_is_403_and_mails_a_new_code() {
    let app = TestApp::new().await;
    app.register("u@example.com", "unverified").await.expect(200);
    let before = app.mails("u@example.com").await.len();

    let answer = app.login("u@example.com", PASSWORD).await.expect(403);

    assert_eq!(answer.message(), "Cannot Login Email Not Verified, OTP send to your email");
    assert_eq!(app.mails("u@example.com").await.len(), before + 1);
    // A wrong password on an unverified account sends nothing.
    app.login("u@example.com", "wrong password!").await.expect(401);
    assert_eq!(app.mails("u@example.com").await.len(), before + 1);
}

#[tokio::test]
async fn bad_tokens_are_401_and_expired_ones_410() {
    let app = TestApp::new().await;
    let token = app.signed_up("t@example.com", "tokens").await;
    app.get("/api/account/myprofile", Some(&token)).await.expect(200);

    let none = app.get("/api/account/myprofile", None).await.expect(401);
    assert_eq!(none.message(), "Unauthorized");
    app.get("/api/account/myprofile", Some("garbage")).await.expect(401);
    let forged = api::http::auth::tokens::Tokens::new(b"another secret").issue(uuid::Uuid::now_v7()).unwrap();
    app.get("/api/account/myprofile", Some(&forged)).await.expect(401);
    let mut tampered = token.clone();
    tampered.push('x');
    app.get("/api/account/myprofile", Some(&tampered)).await.expect(401);

    let user_id = app.my_profile(&token).await["userId"].as_str().unwrap().to_owned();
    let now = chrono::Utc::now().timestamp();
    let claims = api::http::auth::tokens::Claims { sub: user_id, iat: now - 90_000, exp: now - 3_600 };
    let expired = app.state.accounts.tokens.sign(&claims).unwrap();
    let answer = app.get("/api/account/myprofile", Some(&expired)).await.expect(410);
    assert_eq!(answer.message(), "Token expired");
}

#[tokio::test]
async fn login_is_rate_limited_per_account_with_429_in_the_envelope() {
    let app = TestApp::with_args(&["--rate-limit-per-account", "3"]).await;
    app.signed_up("r@example.com", "limited").await;

    for _ in 0..3 {
        app.login("r@example.com", "wrong password!").await.expect(401);
    }
    let limited = app.login("r@example.com", PASSWORD).await.expect(429);
    assert!(limited.message().contains("Too many requests"));
    // Another account from the same address is not affected.
    app.login("someone@example.com", PASSWORD).await.expect(401);
}

#[tokio::test]
async fn register_is_rate_limited_per_client_address() {
    let app = TestApp::with_args(&["--rate-limit-per-ip", "2"]).await;
    app.register("a1@example.com", "addr1").await.expect(200);
    app.register("a2@example.com", "addr2").await.expect(200);
    app.register("a3@example.com", "addr3").await.expect(429);
}

// ---------------------------------------------------------------- passwords

#[tokio::test]
async fn a_reset_link_sets_a_new_password_once() {
    let app = TestApp::new().await;
    let old_session = app.signed_up("p@example.com", "resetter").await;
    // Tokens carry whole seconds: let the reset happen in a later second than the sign-in.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;

    let unknown = app.json("PUT", "/api/auth/reset-account-password", None, json!({ "email": "ghost@example.com" })).await.expect(200);
    let known = app.json("PUT", "/api/auth/reset-account-password", None, json!({ "email": "p@example.com" })).await.expect(200);
    assert_eq!(unknown.message(), known.message(), "no account enumeration");
    assert!(app.mails("ghost@example.com").await.is_empty());

    let link = app.mails("p@example.com").await[0]["link"].as_str().unwrap().to_owned();
    let token = link.split("/passwordreset/").nth(1).unwrap().to_owned();
    let reset = |token: &str, password: &str, confirm: &str| json!({ "resetPasswordToken": token, "newPassword": password, "confirmPassword": confirm });
    let mismatch = app
        .json("PUT", "/api/auth/resetpassword-changepassword", None, reset(&token, "new password 1", "new password 2"))
        .await
        .expect(400);
    assert_eq!(mismatch.message(), "Password doesn't match");
    let last = if token.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}", &token[..token.len() - 1]);
    app.json("PUT", "/api/auth/resetpassword-changepassword", None, reset(&forged, "new password 1", "new password 1")).await.expect(400);
    app.json("PUT", "/api/auth/resetpassword-changepassword", None, reset("nonsense", "new password 1", "new password 1"))
        .await
        .expect(400);

    app.json("PUT", "/api/auth/resetpassword-changepassword", None, reset(&token, "new password 1", "new password 1")).await.expect(200);
    let new_session = app.login("p@example.com", "new password 1").await.expect(200).body()["accessToken"].as_str().unwrap().to_owned();
    app.get("/api/account/myprofile", Some(&old_session)).await.expect(401);
    app.get("/api/account/myprofile", Some(&new_session)).await.expect(200);
    app.login("p@example.com", PASSWORD).await.expect(401);

    let reused = app
        .json("PUT", "/api/auth/resetpassword-changepassword", None, reset(&token, "new password 2", "new password 2"))
        .await
        .expect(400);
    assert_eq!(reused.message(), "This password reset link is invalid or has expired");
}

#[tokio::test]
async fn changing_the_password_needs_the_current_one() {
    let app = TestApp::new().await;
    let token = app.signed_up("cp@example.com", "changer").await;
    let change =
        |current: &str, new: &str, confirm: &str| json!({ "currentPassword": current, "newPassword": new, "confirmPassword": confirm });

    let wrong = app
        .json("PUT", "/api/auth/change-account-password", Some(&token), change("nope nope", "brand new pass", "brand new pass"))
        .await
        .expect(400);
    assert_eq!(wrong.message(), "Current password is incorrect");
    let mismatch = app
        .json("PUT", "/api/auth/change-account-password", Some(&token), change(PASSWORD, "brand new pass", "brand new pas"))
        .await
        .expect(400);
    assert_eq!(mismatch.message(), "New password and confirm password doesn't match!");
    app.json("PUT", "/api/auth/change-account-password", None, change(PASSWORD, "brand new pass", "brand new pass")).await.expect(401);

    let done = app
        .json("PUT", "/api/auth/change-account-password", Some(&token), change(PASSWORD, "brand new pass", "brand new pass"))
        .await
        .expect(200);
    assert_eq!(done.message(), "Password changed successfully");
    app.get("/api/account/myprofile", Some(&token)).await.expect(200);
    app.login("cp@example.com", "brand new pass").await.expect(200);
    app.login("cp@example.com", PASSWORD).await.expect(401);
}

// ---------------------------------------------------------------- e-mail change

#[tokio::test]
async fn changing_the_email_needs_the_code_mailed_to_the_new_address() {
    let app = TestApp::new().await;
    let token = app.signed_up("before@example.com", "mover").await;
    app.signed_up("occupied@example.com", "occupant").await;
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;

    let taken = app.json("PUT", "/api/auth/changeemail", Some(&token), json!({ "newEmail": "Occupied@example.com" })).await.expect(409);
    assert_eq!(taken.message(), "Email is already registered");
    app.json("PUT", "/api/auth/changeemail", Some(&token), json!({ "newEmail": "after@example.com" })).await.expect(200);
    let code = app.code("after@example.com").await;
    assert_eq!(app.mails("before@example.com").await.len(), 1, "only the sign-up code went to the old address");

    let verify = |c: &str| json!({ "newEmail": "after@example.com", "verificationCode": c });
    let wrong = if code == "000000" { "111111" } else { "000000" };
    app.json("PUT", "/api/auth/verifyemailchange", Some(&token), verify(wrong)).await.expect(400);
    let done = app.json("PUT", "/api/auth/verifyemailchange", Some(&token), verify(&code)).await.expect(200);
    assert_eq!(done.message(), "Login again with new email and same credentials");

    let relogged = app.login("after@example.com", PASSWORD).await.expect(200).body()["accessToken"].as_str().unwrap().to_owned();
    app.login("before@example.com", PASSWORD).await.expect(401);
    assert_eq!(app.my_profile(&relogged).await["email"], "after@example.com");
    // The UI logs out after the change; the old session is over anyway.
    app.get("/api/account/myprofile", Some(&token)).await.expect(401);
    let reused = app.json("PUT", "/api/auth/verifyemailchange", Some(&relogged), verify(&code)).await.expect(400);
    assert_eq!(reused.message(), "No verification code is pending; request a new one");
    // The old address was released: someone else may sign up with it.
    app.register("before@example.com", "newcomer").await.expect(200);
}

// ---------------------------------------------------------------- Google

async fn google_app() -> (TestApp, FakeGoogle) {
    let google = FakeGoogle::start().await;
    let app = TestApp::with_args(&["--google-client-id", CLIENT_ID, "--google-jwks-url", &google.jwks_url]).await;
    (app, google)
}

#[tokio::test]
async fn a_google_token_creates_the_account_once_and_signs_in_after() {
    let (app, google) = google_app().await;
    let token = google.token(&FakeGoogle::claims("Gina@Gmail.com"));

    let first = app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": token })).await.expect(200);
    let access = first.body()["accessToken"].as_str().unwrap().to_owned();
    let profile = app.my_profile(&access).await;
    assert_eq!(profile["authProvider"], "GOOGLE");
    assert_eq!(profile["email"], "gina@gmail.com");
    assert_eq!(profile["username"], "gina");
    assert_eq!(profile["fullName"], "Gina Google");

    let again = app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": token })).await.expect(200);
    let same = app.my_profile(again.body()["accessToken"].as_str().unwrap()).await;
    assert_eq!(same["userId"], profile["userId"]);

    // A second Google user whose name is taken gets a unique one.
    let other = google.token(&FakeGoogle::claims("gina@other.example"));
    let second = app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": other })).await.expect(200);
    let second = app.my_profile(second.body()["accessToken"].as_str().unwrap()).await;
    assert_ne!(second["username"].as_str().unwrap().to_lowercase(), "gina");
    assert!(second["username"].as_str().unwrap().starts_with("gina"));
}

#[tokio::test]
async fn google_users_cannot_change_password_or_email() {
    let (app, google) = google_app().await;
    let answer = app
        .json("POST", "/api/auth/googlelogin", None, json!({ "idToken": google.token(&FakeGoogle::claims("g@gmail.com")) }))
        .await
        .expect(200);
    let access = answer.body()["accessToken"].as_str().unwrap();

    let password = app
        .json(
            "PUT",
            "/api/auth/change-account-password",
            Some(access),
            json!({ "currentPassword": "x", "newPassword": "new password", "confirmPassword": "new password" }),
        )
        .await
        .expect(403);
    assert!(password.message().contains("Google"));
    let email = app.json("PUT", "/api/auth/changeemail", Some(access), json!({ "newEmail": "new@example.com" })).await.expect(403);
    assert_eq!(email.message(), "You can't change your email");
    app.login("g@gmail.com", "").await.expect(400);
    app.login("g@gmail.com", "any password").await.expect(401);
}

#[tokio::test]
async fn google_tokens_with_wrong_audience_issuer_expiry_signature_or_unverified_email_are_400() {
    let (app, google) = google_app().await;
    let good = FakeGoogle::claims("bad@gmail.com");
    let with = |field: &str, value: serde_json::Value| {
        let mut claims = good.clone();
        claims[field] = value;
        claims
    };
    let other_key = aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048).unwrap();
    let now = chrono::Utc::now().timestamp();
    let cases = [
        (google.token(&with("aud", json!("someone-else"))), "Invalid Google token: wrong audience"),
        (google.token(&with("iss", json!("https://evil.example"))), "Invalid Google token: wrong issuer"),
        (google.token(&with("exp", json!(now - 3600))), "Invalid Google token: expired"),
        (google.token_signed_by(&other_key, &good), "Invalid Google token: bad signature"),
        (google.token(&with("email_verified", json!(false))), "Your Google email address is not verified"),
        ("not-a-jwt".to_owned(), "Invalid Google token: malformed"),
    ];
    for (token, message) in cases {
        let answer = app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": token })).await.expect(400);
        assert_eq!(answer.message(), message);
    }
    assert_eq!(app.event_count().await, 0, "no account was created");
    app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": google.token(&good) })).await.expect(200);
}

#[tokio::test]
async fn google_sign_in_without_a_client_id_is_400() {
    let app = TestApp::new().await;
    let answer = app.json("POST", "/api/auth/googlelogin", None, json!({ "idToken": "x.y.z" })).await.expect(400);
    assert_eq!(answer.message(), "Google sign-in is not configured");
}

// ---------------------------------------------------------------- profiles

#[tokio::test]
async fn the_profile_is_edited_with_images_checked_by_content() {
    let app = TestApp::new().await;
    let token = app.signed_up("e@example.com", "editor").await;
    let avatar = png(2_000);
    let (content_type, body) = Form::new()
        .text("fullName", "Eddie Editor")
        .text("username", "Eddie")
        .text("mobileNumber", "+1 555 0100")
        .text("bio", "I edit things")
        .file("avatar", "me.txt", "text/plain", &avatar)
        .finish();

    let answer = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(200);

    let profile = answer.body();
    assert_eq!(profile["fullName"], "Eddie Editor");
    assert_eq!(profile["username"], "Eddie");
    assert_eq!(profile["mobileNumber"], "+1 555 0100");
    assert_eq!(profile["bio"], "I edit things");
    let url = profile["avatar"].as_str().unwrap();
    assert!(url.starts_with("/ipfs/"), "{url}");
    let served = app.router.clone().oneshot_get(url).await;
    assert_eq!(served, avatar, "the stored avatar is served by its CID");
    assert_eq!(app.my_profile(&token).await, *profile);
    app.get("/api/auth/checkusername?username=editor", None).await.expect(200);
    assert_eq!(
        app.get("/api/auth/checkusername?username=editor", None).await.message(),
        "Username is Available",
        "the old name was released"
    );
}

trait OneshotGet {
    async fn oneshot_get(self, uri: &str) -> Vec<u8>;
}

impl OneshotGet for axum::Router {
    async fn oneshot_get(self, uri: &str) -> Vec<u8> {
        use tower::ServiceExt;
        let response = self.oneshot(axum::http::Request::get(uri).body(axum::body::Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap().to_vec()
    }
}

#[tokio::test]
async fn a_non_image_upload_is_400_and_stores_nothing() {
    let app = TestApp::new().await;
    let token = app.signed_up("n@example.com", "nonimage").await;
    let (events, files) = (app.event_count().await, app.file_count());
    // Named and typed like a PNG, but a PDF inside.
    let (content_type, body) =
        Form::new().text("fullName", "Changed Name").file("coverImage", "cover.png", "image/png", b"%PDF-1.7 not an image at all").finish();

    let answer = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(400);

    assert_eq!(answer.message(), "coverImage: not an image (PNG, JPEG, GIF, WebP or SVG)");
    // An SVG avatar is judged as XML: a script under a prefix bound to the SVG namespace is a script.
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></svg>"#;
    let (content_type, body) = Form::new().file("avatar", "me.svg", "image/svg+xml", svg).finish();
    let answer = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(400);
    assert_eq!(answer.message(), "avatar: this SVG cannot be accepted: it contains a script");
    assert_eq!(app.event_count().await, events, "no event");
    assert_eq!(app.file_count(), files, "no file");
    assert_eq!(app.my_profile(&token).await["fullName"], "Test User");
}

#[tokio::test]
async fn an_oversized_upload_is_413_and_stores_nothing() {
    let app = TestApp::with_args(&["--max-image-bytes", "4096"]).await;
    let token = app.signed_up("big@example.com", "bigfile").await;
    let (events, files) = (app.event_count().await, app.file_count());

    // Over the per-image limit, within the body limit.
    let (content_type, body) = Form::new().text("fullName", "Big").file("avatar", "a.png", "image/png", &png(5_000)).finish();
    let answer = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(413);
    assert!(answer.message().starts_with("avatar:"), "{}", answer.message());

    // Over the whole body limit: refused while reading.
    let (content_type, body) = Form::new().file("avatar", "a.png", "image/png", &png(3 * 1024 * 1024)).finish();
    app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(413);

    assert_eq!(app.event_count().await, events, "no event");
    assert_eq!(app.file_count(), files, "no file");
}

#[tokio::test]
async fn a_taken_username_or_blank_name_refuses_the_edit() {
    let app = TestApp::new().await;
    app.signed_up("x@example.com", "xavier").await;
    let token = app.signed_up("y@example.com", "yolanda").await;
    let events = app.event_count().await;

    let (content_type, body) = Form::new().text("username", "XAVIER").file("avatar", "a.png", "image/png", &png(100)).finish();
    let taken = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(409);
    assert_eq!(taken.message(), "Username is not Available");
    let (content_type, body) = Form::new().text("fullName", "  ").finish();
    let blank = app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(400);
    assert_eq!(blank.message(), "fullName: Required");

    assert_eq!(app.event_count().await, events);
    assert_eq!(app.file_count(), 0);
}

#[tokio::test]
async fn a_public_profile_never_shows_email_or_mobile_number() {
    let app = TestApp::new().await;
    let token = app.signed_up("private@example.com", "privy").await;
    let (content_type, body) = Form::new().text("mobileNumber", "+44 20 7946 0958").text("bio", "hello").finish();
    app.raw("PUT", "/api/account/myprofile", Some(&token), &content_type, body).await.expect(200);
    let user_id = app.my_profile(&token).await["userId"].as_str().unwrap().to_owned();

    for viewer in [None, Some(token.as_str())] {
        let answer = app.get(&format!("/api/account/getuserprofile/{user_id}"), viewer).await.expect(200);
        let profile = answer.body().as_object().unwrap();
        assert_eq!(profile["username"], "privy");
        assert_eq!(profile["bio"], "hello");
        assert!(!profile.contains_key("email") && !profile.contains_key("mobileNumber"), "{profile:?}");
        let text = answer.json.to_string();
        assert!(!text.contains("private@example.com") && !text.contains("7946"), "{text}");
    }
    app.get(&format!("/api/account/getuserprofile/{}", uuid::Uuid::now_v7()), None).await.expect(404);
    app.get("/api/account/getuserprofile/not-a-uuid", None).await.expect(404);
}

// ---------------------------------------------------------------- wallets

const HOST: &str = "localhost:5173";

async fn nonce(app: &TestApp, token: &str) -> String {
    app.get("/api/account/walletnonce", Some(token)).await.expect(200).body()["nonce"].as_str().unwrap().to_owned()
}

async fn connect(app: &TestApp, token: &str, provider: &str, address: &str, message: &str, signature: &str) -> Answer {
    let body = json!({ "walletProvider": provider, "walletAddress": address, "message": message, "signature": signature });
    app.send(
        axum::http::Request::put("/api/account/connectwallet")
            .header("host", HOST)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn a_wallet_is_linked_by_signing_the_servers_nonce() {
    let app = TestApp::new().await;
    let token = app.signed_up("wallet@example.com", "holder").await;
    let wallet = Wallet::new(1);
    let message = siwe_message(HOST, &wallet.address(), &nonce(&app, &token).await);

    let answer = connect(&app, &token, "Metamask", &wallet.address(), &message, &wallet.sign(&message)).await.expect(200);

    assert_eq!(answer.message(), "Connected!");
    let linked = json!([{ "walletProvider": "Metamask", "walletAddress": wallet.address().to_lowercase() }]);
    assert_eq!(answer.body()["connectedWallet"], linked);
    assert_eq!(app.my_profile(&token).await["connectedWallet"], linked);

    // The nonce is used up.
    let replay = connect(&app, &token, "Metamask", &wallet.address(), &message, &wallet.sign(&message)).await.expect(400);
    assert_eq!(replay.message(), "Invalid or expired nonce; request a new one");

    let disconnected =
        app.json("PUT", "/api/account/disconnectwallet", Some(&token), json!({ "walletAddress": wallet.address() })).await.expect(200);
    assert_eq!(disconnected.body()["connectedWallet"], json!([]));
    app.json("PUT", "/api/account/disconnectwallet", Some(&token), json!({ "walletAddress": wallet.address() })).await.expect(400);
}

#[tokio::test]
async fn bad_signatures_wrong_nonces_and_foreign_domains_are_refused() {
    let app = TestApp::new().await;
    let token = app.signed_up("sig@example.com", "signer").await;
    let wallet = Wallet::new(2);
    let impostor = Wallet::new(3);
    let issued = nonce(&app, &token).await;
    let events = app.event_count().await;

    let message = siwe_message(HOST, &wallet.address(), &issued);
    let bad_signature = connect(&app, &token, "Coinbase", &wallet.address(), &message, &impostor.sign(&message)).await.expect(400);
    assert_eq!(bad_signature.message(), "Invalid signature: not signed by walletAddress");

    let other_nonce = siwe_message(HOST, &wallet.address(), "0123456789abcdef0123456789abcdef");
    let wrong_nonce = connect(&app, &token, "Coinbase", &wallet.address(), &other_nonce, &wallet.sign(&other_nonce)).await.expect(400);
    assert_eq!(wrong_nonce.message(), "Invalid or expired nonce; request a new one");

    let phishing = siwe_message("evil.example", &wallet.address(), &issued);
    let foreign = connect(&app, &token, "Coinbase", &wallet.address(), &phishing, &wallet.sign(&phishing)).await.expect(400);
    assert!(foreign.message().contains("domain"), "{}", foreign.message());

    let unknown_provider = connect(&app, &token, "Ledger", &wallet.address(), &message, &wallet.sign(&message)).await.expect(400);
    assert!(unknown_provider.message().starts_with("walletProvider"));
    connect(&app, &token, "Coinbase", &wallet.address(), &message, "0xdeadbeef").await.expect(400);

    assert_eq!(app.event_count().await, events, "nothing linked");
    connect(&app, &token, "Coinbase", &wallet.address(), &message, &wallet.sign(&message)).await.expect(200);
}

#[tokio::test]
async fn a_message_outside_the_eip_4361_grammar_is_refused_though_signed() {
    let app = TestApp::new().await;
    let token = app.signed_up("strict@example.com", "strictone").await;
    let wallet = Wallet::new(4);
    let issued = nonce(&app, &token).await;
    let events = app.event_count().await;
    let canonical = siwe_message(HOST, &wallet.address(), &issued);

    // Each signed by the wallet, each a message a wallet's strict parser would not show as a
    // sign-in request for this site.
    let loose = [
        (canonical.replace('\n', "\r\n"), "LF only"),
        (canonical.replace("Version: 1\nChain ID: 80001", "Chain ID: 80001\nVersion: 1"), "line 7 must be `Version: …`"),
        (canonical.replace("URI: ", "URI: https://evil.example\nURI: "), "line 7 must be `Version: …`"),
        (format!("{canonical}\nDomain: evil.example"), "line 11 is not a Sign-In with Ethereum field"),
        (canonical.replacen("\n\n", "\n", 1), "line 3 must be blank"),
        (format!("Please sign.\n{canonical}"), "not a Sign-In with Ethereum message"),
    ];
    for (message, why) in loose {
        let answer = connect(&app, &token, "Metamask", &wallet.address(), &message, &wallet.sign(&message)).await.expect(400);
        assert!(answer.message().starts_with("message: ") && answer.message().contains(why), "{message:?}: {}", answer.message());
    }
    assert_eq!(app.event_count().await, events, "nothing linked, the nonce kept");
    connect(&app, &token, "Metamask", &wallet.address(), &canonical, &wallet.sign(&canonical)).await.expect(200);
}

#[tokio::test]
async fn an_address_linked_to_another_account_is_409_until_released() {
    let app = TestApp::new().await;
    let first = app.signed_up("one@example.com", "firstone").await;
    let second = app.signed_up("two@example.com", "secondone").await;
    let wallet = Wallet::new(4);
    let link = |token: String| {
        let app = &app;
        let wallet = &wallet;
        async move {
            let message = siwe_message(HOST, &wallet.address(), &nonce(app, &token).await);
            connect(app, &token, "Other", &wallet.address(), &message, &wallet.sign(&message)).await
        }
    };
    link(first.clone()).await.expect(200);

    let taken = link(second.clone()).await.expect(409);
    assert_eq!(taken.message(), "This wallet is already linked to another account");

    app.json("PUT", "/api/account/disconnectwallet", Some(&first), json!({ "walletAddress": wallet.address() })).await.expect(200);
    link(second.clone()).await.expect(200);
    assert_eq!(app.my_profile(&second).await["connectedWallet"][0]["walletAddress"], wallet.address().to_lowercase());
}

#[tokio::test]
async fn the_dev_wallet_accounts_say_who_linked_them_only_on_the_dev_chain() {
    let app = TestApp::on_dev_chain().await;
    let ada = app.signed_up("ada@example.com", "ada_lumen").await;
    let kofi = app.signed_up("kofi@example.com", "kofi_waves").await;
    for (token, index) in [(&ada, 10), (&kofi, 11), (&ada, 19)] {
        let wallet = Wallet::dev(index);
        let message = siwe_message(HOST, &wallet.address(), &nonce(&app, token).await);
        connect(&app, token, "Other", &wallet.address(), &message, &wallet.sign(&message)).await.expect(200);
    }
    let ada_id = app.my_profile(&ada).await["userId"].clone();
    let kofi_id = app.my_profile(&kofi).await["userId"].clone();

    let accounts = app.get("/api/dev/wallets", Some(&ada)).await.expect(200).body().as_array().cloned().unwrap();
    assert_eq!(accounts.len(), 20, "every account of the dev wallet, the demo people's 10-17 among them");
    for (index, account) in accounts.iter().enumerate() {
        assert_eq!(account["index"], json!(index));
        assert_eq!(account["address"], json!(Wallet::dev(index as u32).address()), "the dev wallet's own derivation, checksummed");
    }
    assert_eq!(accounts[10]["linkedTo"], json!({ "userId": ada_id, "username": "ada_lumen", "fullName": "Test User" }));
    assert_eq!(accounts[10]["mine"], true);
    assert_eq!(accounts[19]["mine"], true);
    assert_eq!(accounts[11]["linkedTo"]["userId"], kofi_id);
    assert_eq!(accounts[11]["mine"], false);
    assert!(
        accounts.iter().enumerate().filter(|(i, _)| ![10, 11, 19].contains(i)).all(|(_, a)| a["linkedTo"].is_null() && a["mine"] == false)
    );

    // Signed out: who linked what, nothing is "mine"; a bad token is simply no caller.
    for token in [None, Some("not-a-token")] {
        let accounts = app.get("/api/dev/wallets", token).await.expect(200).body().as_array().cloned().unwrap();
        assert_eq!(accounts[10]["linkedTo"]["username"], "ada_lumen");
        assert!(accounts.iter().all(|a| a["mine"] == false));
    }
    let doc = app.get("/api/openapi.json", None).await.json;
    assert_eq!(doc["paths"]["/api/dev/wallets"]["get"]["x-dev-only"], true);

    // Not on a real chain (`serve`): neither served nor documented.
    let served = TestApp::new().await;
    let answer = served.get("/api/dev/wallets", Some(&served.signed_up("x@example.com", "xavier").await)).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(served.get("/api/openapi.json", None).await.json["paths"].get("/api/dev/wallets").is_none());
}

// ---------------------------------------------------------------- contact and mail

#[tokio::test]
async fn a_contact_message_is_kept_as_an_event_and_validated() {
    let app = TestApp::new().await;
    let events = app.event_count().await;
    let message = json!({ "name": "Pat", "email": "pat@example.com", "subject": "Hello", "message": "I like it" });

    app.json("POST", "/api/misc/contactus", None, message.clone()).await.expect(200);
    assert_eq!(app.event_count().await, events + 1);
    let stored = app.state.store.read_all(events, 10).await.unwrap();
    assert_eq!(stored[0].event_type, "ContactMessageReceived");
    assert!(stored[0].stream_id.starts_with("contact-"));

    let mut no_subject = message.clone();
    no_subject["subject"] = json!("");
    assert_eq!(app.json("POST", "/api/misc/contactus", None, no_subject).await.expect(400).message(), "subject: Required");
    let mut bad_email = message.clone();
    bad_email["email"] = json!("pat");
    assert_eq!(app.json("POST", "/api/misc/contactus", None, bad_email).await.expect(400).message(), "email: Enter a valid email");
    assert_eq!(app.event_count().await, events + 1);
}

#[tokio::test]
async fn the_dev_mailbox_route_exists_only_without_smtp() {
    let app = TestApp::with_args(&["--smtp-url", "smtp://127.0.0.1:1", "--mail-from", "Market <no-reply@example.com>"]).await;
    let answer = app.get("/api/dev/mailbox?to=a@example.com", None).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let dev = TestApp::new().await;
    dev.get("/api/dev/mailbox?to=a@example.com", None).await.expect(200);
    dev.get("/api/dev/mailbox", None).await.expect(400);
}

// ---------------------------------------------------------------- the log

#[tokio::test]
async fn racing_registrations_that_skip_the_pre_check_still_cannot_share_a_username() {
    use domain::accounts::{ClaimKind, UserCommand, decide, repo};
    let app = TestApp::new().await;
    let store = app.state.store.clone();
    let register = |email: &'static str| {
        let store = store.clone();
        async move {
            let user_id = uuid::Uuid::now_v7();
            let command = UserCommand::Register {
                user_id,
                email: email.into(),
                username: "Same".into(),
                full_name: "Racer".into(),
                password_hash: "$argon2id$test".into(),
                code_hash: "00".into(),
                now: chrono::Utc::now(),
            };
            repo::execute(store.as_ref(), user_id, &Default::default(), |u| decide(u, command.clone())).await.map(|_| user_id)
        }
    };

    let results = futures::future::join_all([register("r1@example.com"), register("r2@example.com"), register("r3@example.com")]).await;

    let winners: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    for loser in results.iter().filter(|r| r.is_err()) {
        assert!(matches!(loser, Err(repo::CommandError::Rejected(domain::accounts::AccountError::UsernameTaken))), "{loser:?}");
    }
    assert_eq!(repo::find(store.as_ref(), ClaimKind::Username, "same").await.unwrap(), Some(*winners[0]));
    // The losers left nothing behind: no user stream, no e-mail claim.
    for email in ["r1@example.com", "r2@example.com", "r3@example.com"] {
        let holder = repo::find(store.as_ref(), ClaimKind::Email, email).await.unwrap();
        assert!(holder.is_none() || holder == Some(*winners[0]));
    }
}

#[tokio::test]
async fn the_log_never_holds_a_password_code_or_reset_token_in_clear() {
    let app = TestApp::new().await;
    app.register("secret@example.com", "secretive").await.expect(200);
    let code = app.code("secret@example.com").await;
    app.json("PUT", "/api/auth/reset-account-password", None, json!({ "email": "secret@example.com" })).await.expect(200);
    let link = app.mails("secret@example.com").await[0]["link"].as_str().unwrap().to_owned();
    let token = link.rsplit('.').next().unwrap().to_owned();

    let events = app.state.store.read_all(0, 1_000).await.unwrap();
    assert!(events.iter().any(|e| e.event_type == "VerificationCodeIssued"));
    for event in &events {
        assert!(!event.payload.contains(PASSWORD), "{}", event.payload);
        assert!(!event.payload.contains(&format!("\"{code}\"")), "{}", event.payload);
        assert!(!event.payload.contains(&token), "{}", event.payload);
    }
}

//! Interop with the system `openssl` binary (OpenSSL 3): a rustls server with this provider
//! against `openssl s_client`, and a rustls client with this provider against
//! `openssl s_server`, for every suite, over 127.0.0.1.
//!
//! Each connection: handshake (certificates made at test time by `openssl`, verified by both
//! ends), then about 1 MiB each way at once — rustls writes records of mixed sizes (1 byte to
//! several records per write), OpenSSL sends what arrives on its standard input in records of
//! at most 5000 bytes (`-max_send_frag`) — and both directions are compared byte for byte
//! with what was sent. For TLS 1.3, rustls sends a KeyUpdate (update_requested) half-way, and
//! OpenSSL's second half of data is held back until OpenSSL has written out data sent after
//! it (OpenSSL answers a KeyUpdate with its next write); afterwards the test checks from the
//! extracted traffic keys that exactly one key update happened in each direction.
//!
//! OpenSSL runs with `-quiet` so that its standard output carries only the peer's data. It is
//! killed on every path (a guard's `Drop`). Skipped, with a message, only when no `openssl`
//! binary is on the PATH.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{CHUNKS, Certs, SUITES, Suite};
use rustls::crypto::tls13::OkmBlock;
use rustls::{ClientConnection, Connection, ConnectionTrafficSecrets, ServerConnection};

/// Bytes rustls sends to OpenSSL, and OpenSSL to rustls.
const UP: usize = (1 << 20) + 12_345;
const DOWN: usize = (1 << 20) + 54_321;
/// Wall-clock bound for one connection.
const LIMIT: Duration = Duration::from_secs(90);

fn openssl_version() -> Option<String> {
    let out = Command::new("openssl").arg("version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "rustls-simdcrypt-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A P-256 CA and two leaves for localhost / 127.0.0.1 (ECDSA P-256 and RSA 2048), the same
/// steps as `tests/data/gen.sh`.
fn make_certs(dir: &Path) {
    let ec = ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"];
    run(dir, &[&["genpkey"][..], &ec, &["-out", "ca.key"]].concat());
    run(
        dir,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "ca.key",
            "-subj",
            "/CN=simdcrypt-test-ca",
            "-days",
            "2",
            "-out",
            "ca.pem",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
    );
    run(
        dir,
        &[&["genpkey"][..], &ec, &["-out", "ecdsa.key"]].concat(),
    );
    run(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
            "rsa.key",
        ],
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n\
         extendedKeyUsage=serverAuth,clientAuth\n",
    )
    .unwrap();
    for k in ["ecdsa", "rsa"] {
        let (key, csr, pem) = (format!("{k}.key"), format!("{k}.csr"), format!("{k}.pem"));
        run(
            dir,
            &[
                "req",
                "-new",
                "-key",
                &key,
                "-subj",
                "/CN=localhost",
                "-out",
                &csr,
            ],
        );
        run(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &csr,
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "leaf.ext",
                "-out",
                &pem,
            ],
        );
    }
}

/// The openssl child; killed and reaped when dropped.
struct Peer {
    child: Child,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Peer {
    fn spawn(args: &[String]) -> (Peer, ChildStdin, ChildStdout) {
        let mut child = Command::new("openssl")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn openssl");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut err_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        (Peer { child, stderr }, stdin, stdout)
    }

    fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(format!("openssl exited ({status}): {}", self.stderr())),
            _ => None,
        }
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes `data` to OpenSSL's standard input: the first half at once, the rest when `go`
/// fires (or at once if there is no `go`); then keeps the pipe open (so OpenSSL never sees
/// end of input) until `hold` is dropped.
fn feeder(
    mut stdin: ChildStdin,
    data: Arc<Vec<u8>>,
    go: Option<mpsc::Receiver<()>>,
    hold: mpsc::Receiver<()>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let half = if go.is_some() {
            data.len() / 2
        } else {
            data.len()
        };
        if stdin.write_all(&data[..half]).is_err() {
            return;
        }
        if let Some(go) = go {
            if go.recv_timeout(LIMIT).is_err() {
                return;
            }
            if stdin.write_all(&data[half..]).is_err() {
                return;
            }
        }
        let _ = stdin.flush();
        let _ = hold.recv_timeout(LIMIT);
    })
}

/// Collects OpenSSL's standard output (the data rustls sent) until `expect` bytes or EOF.
fn collector(
    mut stdout: ChildStdout,
    expect: usize,
    count: Arc<AtomicUsize>,
) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut got = Vec::with_capacity(expect);
        let mut buf = vec![0u8; 65536];
        while got.len() < expect {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    got.extend_from_slice(&buf[..n]);
                    count.store(got.len(), Ordering::Release);
                }
            }
        }
        got
    })
}

/// Records the TLS 1.3 traffic secrets rustls derives at the end of the handshake.
#[derive(Debug, Default)]
struct Secrets(Mutex<Vec<(String, Vec<u8>)>>);

impl rustls::KeyLog for Secrets {
    fn log(&self, label: &str, _client_random: &[u8], secret: &[u8]) {
        self.0
            .lock()
            .unwrap()
            .push((label.to_string(), secret.to_vec()));
    }
}

impl Secrets {
    fn get(&self, label: &str) -> Vec<u8> {
        let v = self.0.lock().unwrap();
        v.iter()
            .rev()
            .find(|(l, _)| l == label)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| panic!("{label} not logged"))
    }
}

/// What one connection did.
struct Outcome {
    up: usize,
    down: usize,
}

/// Drives `conn` over `sock` until it has sent all of `send`, received `expect` bytes, and the
/// peer has written out all of `send` (`peer_got`). Bounded by `LIMIT`.
#[allow(clippy::too_many_arguments)]
fn drive(
    name: &str,
    conn: &mut Connection,
    sock: &mut TcpStream,
    send: &[u8],
    expect: usize,
    peer_got: &AtomicUsize,
    key_update: bool,
    mut go: Option<mpsc::Sender<()>>,
    peer: &mut Peer,
) -> Result<Vec<u8>, String> {
    let deadline = Instant::now() + LIMIT;
    let mut sent = 0;
    let mut got = Vec::with_capacity(expect);
    let mut updated = false;
    let mut update_at = 0;
    let mut chunk = 0;
    let mut buf = vec![0u8; 65536];
    let status = |sent: usize, got: &Vec<u8>| {
        format!(
            "{name}: sent {sent}/{}, received {}/{expect}, openssl wrote out {}",
            send.len(),
            got.len(),
            peer_got.load(Ordering::Acquire)
        )
    };
    loop {
        if Instant::now() > deadline {
            return Err(format!(
                "timeout: {}; {}",
                status(sent, &got),
                peer.stderr()
            ));
        }
        if let Some(e) = peer.exited() {
            return Err(format!("{}; {e}", status(sent, &got)));
        }
        let mut progress = false;

        if !conn.is_handshaking() && sent < send.len() {
            if key_update && !updated && sent >= send.len() / 2 {
                conn.refresh_traffic_keys()
                    .map_err(|e| format!("{name}: key update: {e}"))?;
                updated = true;
                update_at = sent;
            }
            let end = (sent + CHUNKS[chunk % CHUNKS.len()]).min(send.len());
            let n = conn
                .writer()
                .write(&send[sent..end])
                .map_err(|e| e.to_string())?;
            if n > 0 {
                sent += n;
                if sent == end {
                    chunk += 1;
                }
                progress = true;
            }
        }

        while conn.wants_write() {
            match conn.write_tls(sock) {
                Ok(0) => return Err(format!("socket closed: {}", status(sent, &got))),
                Ok(_) => progress = true,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("write: {e}: {}", status(sent, &got))),
            }
        }
        if updated && peer_got.load(Ordering::Acquire) > update_at {
            // OpenSSL has written out data we sent after the KeyUpdate, so it has processed
            // the KeyUpdate and owes its own before its next record: let it send its second
            // half (OpenSSL sends that reply only with its next write).
            if let Some(go) = go.take() {
                let _ = go.send(());
            }
        }

        match conn.read_tls(sock) {
            Ok(0) => {
                return Err(format!(
                    "openssl closed the connection: {}; {}",
                    status(sent, &got),
                    peer.stderr()
                ));
            }
            Ok(_) => {
                progress = true;
                if let Err(e) = conn.process_new_packets() {
                    // Send the alert, then fail.
                    let _ = conn.write_tls(sock);
                    return Err(format!("{name}: TLS error {e}: {}", status(sent, &got)));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(format!("read: {e}: {}", status(sent, &got))),
        }
        loop {
            match conn.reader().read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("plaintext: {e}: {}", status(sent, &got))),
            }
        }

        if sent == send.len()
            && !conn.wants_write()
            && got.len() >= expect
            && peer_got.load(Ordering::Acquire) >= send.len()
        {
            return Ok(got);
        }
        if !progress {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn version_args(s: &Suite) -> Vec<String> {
    let (v, flag) = if s.tls13 {
        ("-tls1_3", "-ciphersuites")
    } else {
        ("-tls1_2", "-cipher")
    };
    vec![v.into(), flag.into(), s.openssl.into()]
}

/// Checks that the traffic key in use is the one after exactly one KeyUpdate from `secret0`:
/// key(HKDF-Expand-Label(secret0, "traffic upd", "", Hash.length)) (RFC 8446 §7.2), computed
/// with the *ring* provider's HKDF.
fn check_one_update(s: &Suite, what: &str, secret0: &[u8], now: &ConnectionTrafficSecrets) {
    let ring = rustls::crypto::ring::default_provider();
    let suite = ring
        .cipher_suites
        .iter()
        .find(|c| c.suite() == s.suite.suite())
        .and_then(|c| c.tls13())
        .unwrap();
    let label = |secret: &[u8], label: &[u8], out: &mut [u8]| {
        let len = (out.len() as u16).to_be_bytes();
        let label_len = [6 + label.len() as u8];
        suite
            .hkdf_provider
            .expander_for_okm(&OkmBlock::new(secret))
            .expand_slice(&[&len, &label_len, b"tls13 ", label, &[0]], out)
            .unwrap();
    };
    let key = match now {
        ConnectionTrafficSecrets::Aes128Gcm { key, .. }
        | ConnectionTrafficSecrets::Aes256Gcm { key, .. }
        | ConnectionTrafficSecrets::Chacha20Poly1305 { key, .. } => key.as_ref().to_vec(),
        _ => panic!("unexpected secrets"),
    };
    let mut secret1 = vec![0u8; secret0.len()];
    label(secret0, b"traffic upd", &mut secret1);
    let (mut key0, mut key1) = (vec![0u8; key.len()], vec![0u8; key.len()]);
    label(secret0, b"key", &mut key0);
    label(&secret1, b"key", &mut key1);
    assert_ne!(key, key0, "{}: {what}: no key update happened", s.name);
    assert_eq!(
        key, key1,
        "{}: {what}: not the key after one key update",
        s.name
    );
}

/// Runs one connection; `our_server` chooses the direction. Returns bytes moved.
fn connection(s: &Suite, dir: &Path, certs: &Certs, our_server: bool) -> Result<Outcome, String> {
    let ours = common::provider(rustls_simdcrypt::default_provider(), Some(s.suite));
    let log = Arc::new(Secrets::default());
    let up = Arc::new(common::data(UP, 7));
    let down = Arc::new(common::data(DOWN, 11));
    let cert = match s.cert {
        common::CertKind::Ecdsa => "ecdsa",
        common::CertKind::Rsa => "rsa",
    };
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let frag = ["-max_send_frag".to_string(), "5000".to_string()];

    let (mut peer, stdin, stdout, mut sock, mut conn): (_, _, _, TcpStream, Connection);
    if our_server {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let port = listener.local_addr().unwrap().port();
        let mut args: Vec<String> = vec![
            "s_client".into(),
            "-connect".into(),
            format!("127.0.0.1:{port}"),
            "-quiet".into(),
            "-CAfile".into(),
            path("ca.pem"),
            "-servername".into(),
            "localhost".into(),
            "-verify_hostname".into(),
            "localhost".into(),
            "-verify_return_error".into(),
        ];
        args.extend(version_args(s));
        args.extend(frag.clone());
        let spawned = Peer::spawn(&args);
        (peer, stdin, stdout) = spawned;
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        sock = loop {
            match listener.accept() {
                Ok((sock, _)) => break sock,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if let Some(e) = peer.exited() {
                        return Err(e);
                    }
                    if Instant::now() > deadline {
                        return Err("s_client did not connect".into());
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        let mut config = common::server_config(ours, s.version(), certs, s.cert);
        config.key_log = log.clone();
        config.enable_secret_extraction = true;
        conn = ServerConnection::new(Arc::new(config)).unwrap().into();
    } else {
        let mut attempt = 0;
        loop {
            attempt += 1;
            // An ephemeral port the kernel just handed out; s_server binds it right after.
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map_err(|e| e.to_string())?
                .port();
            let mut args: Vec<String> = vec![
                "s_server".into(),
                "-accept".into(),
                format!("127.0.0.1:{port}"),
                "-naccept".into(),
                "1".into(),
                "-quiet".into(),
                "-cert".into(),
                path(&format!("{cert}.pem")),
                "-key".into(),
                path(&format!("{cert}.key")),
            ];
            args.extend(version_args(s));
            args.extend(frag.clone());
            let (mut p, i, o) = Peer::spawn(&args);
            let deadline = Instant::now() + Duration::from_secs(20);
            let connected = loop {
                if let Ok(sock) = TcpStream::connect(("127.0.0.1", port)) {
                    break Ok(sock);
                }
                if let Some(e) = p.exited() {
                    break Err(e);
                }
                if Instant::now() > deadline {
                    break Err("s_server did not listen".into());
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            match connected {
                Ok(so) => {
                    (peer, stdin, stdout, sock) = (p, i, o, so);
                    break;
                }
                Err(e) if attempt >= 3 => return Err(e),
                Err(_) => continue,
            }
        }
        let mut config = common::client_config(ours, s.version(), certs);
        config.key_log = log.clone();
        config.enable_secret_extraction = true;
        conn = ClientConnection::new(Arc::new(config), "localhost".try_into().unwrap())
            .unwrap()
            .into();
    }
    sock.set_nonblocking(true).unwrap();
    sock.set_nodelay(true).unwrap();

    let (go_tx, go_rx) = if s.tls13 {
        let (t, r) = mpsc::channel();
        (Some(t), Some(r))
    } else {
        (None, None)
    };
    let (hold_tx, hold_rx) = mpsc::channel::<()>();
    let feed = feeder(stdin, down.clone(), go_rx, hold_rx);
    let peer_got = Arc::new(AtomicUsize::new(0));
    let collect = collector(stdout, up.len(), peer_got.clone());

    let name = format!(
        "{} {}",
        s.name,
        if our_server {
            "vs s_client"
        } else {
            "vs s_server"
        }
    );
    let result = drive(
        &name,
        &mut conn,
        &mut sock,
        &up,
        down.len(),
        &peer_got,
        s.tls13,
        go_tx,
        &mut peer,
    );
    // Close cleanly if we can, then stop OpenSSL and the helper threads on every path.
    if result.is_ok() {
        conn.send_close_notify();
        let until = Instant::now() + Duration::from_secs(5);
        while conn.wants_write() && Instant::now() < until {
            if let Err(e) = conn.write_tls(&mut sock) {
                if e.kind() != std::io::ErrorKind::WouldBlock {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    let stderr = peer.stderr();
    drop(peer);
    drop(hold_tx);
    let _ = feed.join();
    let openssl_got = collect
        .join()
        .map_err(|_| "collector panicked".to_string())?;
    let got = result?;

    if got != *down {
        return Err(format!(
            "{name}: data from openssl differs ({} bytes)",
            got.len()
        ));
    }
    if openssl_got != *up {
        return Err(format!(
            "{name}: data openssl received differs ({} bytes); {stderr}",
            openssl_got.len()
        ));
    }
    if s.tls13 {
        let secrets = conn
            .dangerous_extract_secrets()
            .map_err(|e| e.to_string())?;
        let (tx, rx) = if our_server {
            ("SERVER_TRAFFIC_SECRET_0", "CLIENT_TRAFFIC_SECRET_0")
        } else {
            ("CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0")
        };
        check_one_update(s, "sending", &log.get(tx), &secrets.tx.1);
        check_one_update(s, "receiving", &log.get(rx), &secrets.rx.1);
    }
    Ok(Outcome {
        up: openssl_got.len(),
        down: got.len(),
    })
}

fn matrix(our_server: bool) {
    let Some(version) = openssl_version() else {
        println!("SKIPPED: no `openssl` binary on PATH; the OpenSSL interop cases did not run");
        return;
    };
    let tmp = TempDir::new(if our_server { "srv" } else { "cli" });
    make_certs(&tmp.0);
    let certs = Certs::load(&tmp.0);
    let (us, them) = if our_server {
        ("rustls-simdcrypt server", "openssl s_client")
    } else {
        ("rustls-simdcrypt client", "openssl s_server")
    };
    println!("peer: {version}");
    let mut failures = Vec::new();
    for s in SUITES {
        let v = if s.tls13 { "TLS1.3" } else { "TLS1.2" };
        match connection(s, &tmp.0, &certs, our_server) {
            Ok(o) => println!(
                "| {} | {v} | {us} <-> {them} | {} B to openssl | {} B from openssl | {} | pass |",
                s.name,
                o.up,
                o.down,
                if s.tls13 {
                    "key update: 1 each way"
                } else {
                    "-"
                }
            ),
            Err(e) => {
                println!("| {} | {v} | {us} <-> {them} | FAIL: {e} |", s.name);
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn our_server_against_openssl_s_client() {
    matrix(true);
}

#[test]
fn our_client_against_openssl_s_server() {
    matrix(false);
}

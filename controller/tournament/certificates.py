"""The event's own certificate authority, and the server's certificate (host-only).

At a club the tables reach the arbiter's computer over Wi-Fi: every table's and arbiter's
password would cross it in clear. `layli tournament create` makes, with the `cryptography`
library, a certificate authority of the event's own and a certificate for the server signed by
it; the brokers listen with TLS beyond this computer and the pages are served over HTTPS, and
each table trusts the event's authority, and nothing else, from its config lines::

    tls = EventTLS(folder / "tls")
    tls.create("Club night", ["arbiter.local"])     # ca.pem, ca.key, server.pem, server.key
    tls.ca_text()                                     # the PEM the tables' config lines carry
    context = client_context(tls.ca_text())           # what a table verifies the broker with

The keys are ECDSA P-256 (fast on a Raspberry Pi, taken by OpenSSL, Mosquitto and every
browser), written only its owner may read them. The server's certificate names
`hosts` (DNS names or IP addresses: the address the tables are given), this computer's name,
``localhost`` and 127.0.0.1; it lasts `SERVER_DAYS`, the authority `CA_DAYS`. A host the
tables reach that the certificate does not name fails their check: `names` says which it has,
and `create` again with the new host makes a new server certificate under the same authority
(the tables' config lines stay good).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from controller.tournament.credentials import CredentialsError, read_private, write_private

CA_DAYS = 3 * 365           # the authority outlives a season of events
SERVER_DAYS = 400           # a server certificate: an event, and its replays
CA_FILE, CA_KEY = "ca.pem", "ca.key"
SERVER_FILE, SERVER_KEY = "server.pem", "server.key"


class TLSError(ValueError):
    """Certificates that are missing, unreadable or unsafe; the text says which and what to
    do."""


class EventTLS:
    """The event's certificates in `folder` (the event's ``tls/``)."""

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self.ca_path = self.folder / CA_FILE
        self.ca_key_path = self.folder / CA_KEY
        self.cert_path = self.folder / SERVER_FILE
        self.key_path = self.folder / SERVER_KEY

    @property
    def exists(self) -> bool:
        return all(path.exists() for path in (self.ca_path, self.cert_path, self.key_path))

    def create(self, event: str, hosts: list[str], now: datetime.datetime | None = None) -> None:
        """The authority (kept if there is one already: the tables trust it) and a new server
        certificate for `hosts` and this computer."""
        now = now or datetime.datetime.now(datetime.timezone.utc)
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.ca_path.exists() and self.ca_key_path.exists():
            ca_cert = x509.load_pem_x509_certificate(self.ca_path.read_bytes())
            ca_key = serialization.load_pem_private_key(
                read_private(self.ca_key_path, "the event's authority key").encode("ascii"),
                None)
        else:
            ca_key = ec.generate_private_key(ec.SECP256R1())
            name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                 _short("%s authority" % event)),
                              x509.NameAttribute(NameOID.ORGANIZATION_NAME, "layli")])
            ca_cert = (x509.CertificateBuilder()
                       .subject_name(name).issuer_name(name)
                       .public_key(ca_key.public_key())
                       .serial_number(x509.random_serial_number())
                       .not_valid_before(now - datetime.timedelta(hours=1))
                       .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
                       .add_extension(x509.BasicConstraints(ca=True, path_length=0),
                                      critical=True)
                       .add_extension(x509.KeyUsage(
                           digital_signature=True, key_cert_sign=True, crl_sign=True,
                           content_commitment=False, key_encipherment=False,
                           data_encipherment=False, key_agreement=False, encipher_only=False,
                           decipher_only=False), critical=True)
                       .add_extension(x509.SubjectKeyIdentifier.from_public_key(
                           ca_key.public_key()), critical=False)
                       .sign(ca_key, hashes.SHA256()))
            write_private(self.ca_key_path, _key_pem(ca_key))
            write_private(self.ca_path, ca_cert.public_bytes(serialization.Encoding.PEM))
        key = ec.generate_private_key(ec.SECP256R1())
        names = server_names(hosts)
        certificate = (x509.CertificateBuilder()
                       .subject_name(x509.Name([x509.NameAttribute(
                           NameOID.COMMON_NAME, _short(hosts[0] if hosts else "localhost"))]))
                       .issuer_name(ca_cert.subject)
                       .public_key(key.public_key())
                       .serial_number(x509.random_serial_number())
                       .not_valid_before(now - datetime.timedelta(hours=1))
                       .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
                       .add_extension(x509.SubjectAlternativeName(names), critical=False)
                       .add_extension(x509.BasicConstraints(ca=False, path_length=None),
                                      critical=True)
                       .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                                      critical=False)
                       .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                           ca_cert.public_key()), critical=False)
                       .sign(ca_key, hashes.SHA256()))
        write_private(self.key_path, _key_pem(key))
        # the server's certificate, then the authority's: the chain a client is shown
        write_private(self.cert_path, certificate.public_bytes(serialization.Encoding.PEM)
                      + ca_cert.public_bytes(serialization.Encoding.PEM))
        os.chmod(self.ca_path, 0o644)       # the authority's certificate is for everyone

    def ca_text(self) -> str:
        """The authority's certificate, PEM: what each table's config lines carry."""
        try:
            return self.ca_path.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError) as error:
            raise TLSError("%s: cannot read the event's certificate authority (%s): "
                           "`layli tournament create` makes it" % (self.ca_path, error)) from None

    def check(self) -> None:
        """TLSError unless the server's certificate and key are there, the key readable by its
        owner only, and the certificate valid now."""
        for path in (self.ca_path, self.cert_path, self.key_path):
            if not path.exists():
                raise TLSError("%s is missing: the event's TLS needs %s, %s and %s in %s "
                               "(`layli tournament create` makes them)" % (
                                   path, CA_FILE, SERVER_FILE, SERVER_KEY, self.folder))
        try:
            read_private(self.key_path, "the server's TLS key")
        except CredentialsError as error:
            raise TLSError(str(error)) from None
        certificate = x509.load_pem_x509_certificate(self.cert_path.read_bytes())
        now = datetime.datetime.now(datetime.timezone.utc)
        if not certificate.not_valid_before_utc <= now <= certificate.not_valid_after_utc:
            raise TLSError("%s is valid from %s to %s, not now: make a new one with `layli "
                           "tournament create`" % (self.cert_path,
                                                   certificate.not_valid_before_utc.date(),
                                                   certificate.not_valid_after_utc.date()))

    def names(self) -> list[str]:
        """The hosts the server's certificate names (DNS names and addresses)."""
        certificate = x509.load_pem_x509_certificate(self.cert_path.read_bytes())
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
        return [str(name.value) for name in names.value]


def server_names(hosts: list[str]) -> list[x509.GeneralName]:
    """What the server's certificate names: `hosts`, this computer's name (and .local, which
    mDNS answers on a club's network), localhost and 127.0.0.1; each once."""
    wanted = list(hosts) + [socket.gethostname(), socket.gethostname() + ".local", "localhost",
                            "127.0.0.1"]
    names: list[x509.GeneralName] = []
    for host in wanted:
        host = host.strip().lower()
        if not host:
            continue
        try:
            name: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host))
        except ValueError:
            name = x509.DNSName(host)
        if name not in names:
            names.append(name)
    return names


def client_context(ca: str | None) -> ssl.SSLContext:
    """The TLS a table (or the server) connects with: the broker's certificate checked
    against `ca` (PEM text: the event's authority) and nothing else, its name against the
    host asked for; `ca` None: the system's authorities (a public broker)."""
    context = ssl.create_default_context(cadata=ca) if ca else ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _short(text: str) -> str:
    """A certificate's common name: at most 64 characters."""
    return text[:64]

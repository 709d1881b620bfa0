#!/bin/sh
# Regenerates the in-memory tests' certificates (tests/inmemory.rs): a P-256 CA, and leaves for
# "localhost" / 127.0.0.1 with an ECDSA P-256 and an RSA 2048 key, valid for 100 years.
# The openssl interop tests make fresh ones at run time (tests/common/mod.rs, same steps).
set -eu
cd "$(dirname "$0")"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key
openssl req -x509 -new -key ca.key -subj /CN=simdcrypt-test-ca -days 36500 -out ca.pem \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ecdsa.key
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.key
printf 'basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' > leaf.ext
for k in ecdsa rsa; do
  openssl req -new -key $k.key -subj /CN=localhost -out $k.csr
  openssl x509 -req -in $k.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 36500 \
    -extfile leaf.ext -out $k.pem
  rm $k.csr
done
rm -f leaf.ext ca.srl ca.key

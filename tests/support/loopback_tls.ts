/**
 * A throw-away certificate authority and a server certificate for 127.0.0.1, made with the `openssl`
 * command for one test run, so that a stand-in can serve https on loopback (MSAL takes only https
 * authorities) and a child process can trust it through `NODE_EXTRA_CA_CERTS`.
 *
 * @module
 */

export interface LoopbackTls {
  /** PEM file of the authority, for `NODE_EXTRA_CA_CERTS` of the child that must trust the server. */
  caFile: string;
  /** PEM server certificate and key for `Deno.serve`. */
  cert: string;
  key: string;
  remove(): Promise<void>;
}

export async function makeLoopbackTls(): Promise<LoopbackTls> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-tls-" });
  const at = (name: string) => `${dir}/${name}`;
  await Deno.writeTextFile(
    at("leaf.cnf"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  const steps = [
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      at("ca.key"),
      "-out",
      at("ca.pem"),
      "-days",
      "1",
      "-subj",
      "/CN=govcat test authority",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign",
    ],
    [
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      at("key.pem"),
      "-out",
      at("leaf.csr"),
      "-subj",
      "/CN=127.0.0.1",
    ],
    [
      "x509",
      "-req",
      "-in",
      at("leaf.csr"),
      "-CA",
      at("ca.pem"),
      "-CAkey",
      at("ca.key"),
      "-CAcreateserial",
      "-out",
      at("cert.pem"),
      "-days",
      "1",
      "-extfile",
      at("leaf.cnf"),
    ],
  ];
  for (const args of steps) {
    let output: Deno.CommandOutput;
    try {
      output = await new Deno.Command("openssl", { args, stdout: "null", stderr: "piped" }).output();
    } catch (error) {
      throw new Error(`This test needs the openssl command to make a loopback certificate: ${error}`);
    }
    if (!output.success) {
      throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(output.stderr)}`);
    }
  }
  return {
    caFile: at("ca.pem"),
    cert: await Deno.readTextFile(at("cert.pem")),
    key: await Deno.readTextFile(at("key.pem")),
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}

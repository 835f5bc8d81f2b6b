package dev.parallax.cli.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The server side of one SCRAM-SHA-256 exchange: reads the client-first message, produces the
 * server-first message, verifies the client proof of the client-final message and produces the
 * server-final message. Channel binding is not offered (no TLS), so a client asking for it is refused.
 */
final class ScramExchange {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ScramCredentials credentials;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    ScramExchange(ScramCredentials credentials) {
        this.credentials = credentials;
    }

    /** Reads {@code n,,n=user,r=nonce} and returns {@code r=nonce+server,s=salt,i=iterations}. */
    byte[] serverFirst(byte[] clientFirstMessage) {
        String message = new String(clientFirstMessage, StandardCharsets.UTF_8);
        if (message.startsWith("p=")) {
            throw new ProtocolException("channel binding is not supported by this server");
        }
        if (!(message.startsWith("n,") || message.startsWith("y,"))) {
            throw new ProtocolException("malformed SCRAM message");
        }
        int bareStart = message.indexOf(',', 2);
        if (bareStart < 0) {
            throw new ProtocolException("malformed SCRAM message");
        }
        clientFirstBare = message.substring(bareStart + 1);
        String clientNonce = attribute(clientFirstBare, 'r');
        byte[] serverNonce = new byte[18];
        RANDOM.nextBytes(serverNonce);
        nonce = clientNonce + Base64.getEncoder().encodeToString(serverNonce);
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credentials.salt())
                + ",i=" + credentials.iterations();
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Verifies {@code c=...,r=...,p=proof}; returns {@code v=signature} when the proof is right,
     * null when the password was wrong.
     */
    byte[] serverFinal(byte[] clientFinalMessage) {
        String message = new String(clientFinalMessage, StandardCharsets.UTF_8);
        int proofStart = message.lastIndexOf(",p=");
        if (proofStart < 0) {
            throw new ProtocolException("malformed SCRAM message");
        }
        String withoutProof = message.substring(0, proofStart);
        if (!nonce.equals(attribute(withoutProof, 'r'))) {
            throw new ProtocolException("SCRAM nonce mismatch");
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(message.substring(proofStart + 3));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("malformed SCRAM message");
        }
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = ScramCredentials.hmac(credentials.storedKey(), authMessage);
        if (proof.length != clientSignature.length) {
            return null;
        }
        byte[] clientKey = new byte[proof.length];
        for (int index = 0; index < proof.length; index++) {
            clientKey[index] = (byte) (proof[index] ^ clientSignature[index]);
        }
        if (!MessageDigest.isEqual(ScramCredentials.sha256(clientKey), credentials.storedKey())) {
            return null;
        }
        byte[] serverSignature = ScramCredentials.hmac(credentials.serverKey(), authMessage);
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    private static String attribute(String message, char name) {
        for (String part : message.split(",")) {
            if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
                return part.substring(2);
            }
        }
        throw new ProtocolException("malformed SCRAM message");
    }
}

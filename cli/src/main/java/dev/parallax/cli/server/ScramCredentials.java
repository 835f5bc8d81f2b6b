package dev.parallax.cli.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A user's SCRAM-SHA-256 verifier (RFC 5802/7677, as PostgreSQL stores it in pg_authid): salt,
 * iteration count, StoredKey and ServerKey. The password itself is not kept.
 */
record ScramCredentials(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
    /** PostgreSQL's default scram_iterations. */
    static final int DEFAULT_ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The verifier for {@code password} with a fresh random salt. */
    static ScramCredentials forPassword(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        byte[] saltedPassword = hi(password.getBytes(StandardCharsets.UTF_8), salt, DEFAULT_ITERATIONS);
        byte[] clientKey = hmac(saltedPassword, "Client Key");
        return new ScramCredentials(salt, DEFAULT_ITERATIONS, sha256(clientKey), hmac(saltedPassword, "Server Key"));
    }

    /**
     * A verifier no password matches, for users that do not exist: PostgreSQL runs the exchange to
     * the end for them too, so a client cannot tell unknown users from wrong passwords.
     */
    static ScramCredentials impossible() {
        byte[] salt = new byte[16];
        byte[] key = new byte[32];
        RANDOM.nextBytes(salt);
        RANDOM.nextBytes(key);
        return new ScramCredentials(salt, DEFAULT_ITERATIONS, key, key.clone());
    }

    static byte[] hmac(byte[] key, String message) {
        return hmac(key, message.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** RFC 5802's Hi(): PBKDF2 with HMAC-SHA-256, one block. */
    private static byte[] hi(byte[] password, byte[] salt, int iterations) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(password, "HmacSHA256"));
            mac.update(salt);
            mac.update(new byte[] {0, 0, 0, 1});
            byte[] previous = mac.doFinal();
            byte[] result = previous.clone();
            for (int round = 1; round < iterations; round++) {
                previous = mac.doFinal(previous);
                for (int index = 0; index < result.length; index++) {
                    result[index] ^= previous[index];
                }
            }
            return result;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}

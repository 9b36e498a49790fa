package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** RFC 5869 appendix A, the HKDF-SHA256 test cases, row by row. */
class HkdfTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void testCase1BasicWithSaltAndInfo() {
        assertCase("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9",
                42, "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @Test
    void testCase2LongerInputsAndOutput() {
        assertCase(range(0x00, 80), range(0x60, 80), range(0xb0, 80), 82,
                "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87");
    }

    @Test
    void testCase3ZeroLengthSaltAndInfo() {
        assertCase("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
                "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
    }

    @Test
    void differentInfoGivesUnrelatedKeysFromOneSecret() {
        byte[] secret = HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b");

        assertThat(Hkdf.derive(new byte[0], secret, "request".getBytes(), 32))
                .isNotEqualTo(Hkdf.derive(new byte[0], secret, "answer".getBytes(), 32)).hasSize(32);
    }

    private static void assertCase(String ikm, String salt, String info, int length, String prk, String okm) {
        byte[] extracted = Hkdf.extract(HEX.parseHex(salt), HEX.parseHex(ikm));

        assertThat(HEX.formatHex(extracted)).isEqualTo(prk);
        assertThat(HEX.formatHex(Hkdf.expand(extracted, HEX.parseHex(info), length))).isEqualTo(okm);
        assertThat(HEX.formatHex(Hkdf.derive(HEX.parseHex(salt), HEX.parseHex(ikm), HEX.parseHex(info), length)))
                .isEqualTo(okm);
    }

    private static String range(int from, int count) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < count; i++) {
            hex.append(String.format("%02x", from + i));
        }
        return hex.toString();
    }
}

import Testing
import PushSimKernel
@testable import PushSimCrypto

/// RSASSA-PKCS1-v1_5 with SHA-256 (RS256): verification against Wycheproof's
/// `rsa_signature_2048_sha256_test.json` (C2SP/wycheproof, testvectors_v1, the group with e =
/// 65537), and signing with RFC 9421's RSA test key (appendix B.1.1) against OpenSSL.
@Suite("RSA PKCS#1 v1.5 / SHA-256")
struct RSATests {
    /// The Wycheproof group's key, as its `publicKeyDer` (SubjectPublicKeyInfo).
    static let wycheproofKeyDER = "30820122300d06092a864886f70d01010105000382010f003082010a0282010100a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1"
            + "fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e824"
            + "7f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c021d0fc"
            + "eca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460"
            + "d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d50203010001"

    /// (tcId, message, signature, valid).
    static let wycheproof: [(Int, String, String, Bool)] = [
        // tcId 1: valid
        (1, "",
         "840f5dac53106dd1f9c57219224cf51289290c42f20466875ba8e830ac5690e541536fcc8ab03b731f82bf66d83f194e7e180b3963ec7a2f3f7904a7ce49aed4"
            + "7da4d4b79421eaf937d301b3e696169297b797c32c076a12be4de0b58e003c5123051a84a10c62f8dac2f42a8640008eb3c7cccd6760ff5b51b6897639225828"
            + "45f048fb8150e5a7a6ca2eccc7bdc85349ad5b26c52137a79fa3fe5c29ab5cd7615013219c1941b6708e9c3c23feff5febaf0c8ebca5750b54e3e6e99a3e876b"
            + "396f27860b7f3ec4e9191703c6332d944f6f69751167680c79c4f6b57f1cc8755d24b6ec158ccdbacdb23107a33cb6b332516c13274d1f9dccc21dced869e486", true),
        // tcId 3: valid
        (3, "54657374",
         "264491e844c119f14e425c03282139a558dcdaeb82a4628173cd407fd319f9076eaebc0dd87a1c22e4d17839096886d58a9d5b7f7aeb63efec56c45ac7bead42"
            + "03b6886e1faa90e028ec0ae094d46bf3f97efdd19045cfbc25a1abda2432639f9876405c0d68f8edbf047c12a454f7681d5d5a2b54bd3723d193dbad4338baad"
            + "753264006e2d08931c4b8bb79aa1c9cad10eb6605f87c5831f6e2b08e002f9c6f21141f5841d92727dd3e1d99c36bc560da3c9067df99fcaf818941f72588be3"
            + "3032bad22caf6704223bb114d575b6d02d9d222b580005d930e8f40cce9f672eebb634a20177d84351627964b83f2053d736a84ab1a005f63bd5ba943de6205c", true),
        // tcId 4: valid
        (4, "313233343030",
         "1758eb94588e6fc4f50c1be1afcaa41027869f304cad513b1fb12c2f446d63cdc05c4830a7e3e630da7b2da4f7867cc173bf6420f9732277282596de41ded32e"
            + "21d0cc31441174da8765f57419c7764ea758f55bc17646eb100c435d1ac0eed6fc7ba6de5f832094ee2f479979765e05ac9976788db3c241a9e32a0da864f001"
            + "9a87646ba623d63f4411af5dee1be9ec488c7e3e1b231479de70b9ac5f78a17b1f4120aece45f26c07e7bb345fdfeb05e14bcaacc614672a465fc523624cb19f"
            + "66f9c6c3f642b832ca44cb25176d679f0e05606c3fed022cac24c2bf960a406d48818e3eb7ed53b0446032469047dfed95fc18088c92d91d93722c47f88163a8", true),
        // tcId 8: Missing NULL in the ASN encoding (Wycheproof: acceptable; refused here, as RFC 8017 8.2.2 compares the whole encoding)
        (8, "313233343030",
         "095dad1fd82bcd36652a381b7f4dd656bd89b40aa58b56da4f6aa8247874b935e65d2b86752d537df7103884d39dd9ad3d65f87404526b09094c5615c6249979"
            + "b0dc58d2199ae8696a5b76b4bb03eaf08c2ab6aec686c6b1b289c9b44f648bd30cb1ac6a64a73d68e59cd05e7aa1b780f4bfd7b83dfe3b884ec11821a93dc5bb"
            + "b47a00eea4557b6b96b5656276001f1f295ddbbbc511a99b9a665b9c2674c8af0d812286d0be3ce74817ba2cad283757de35dfb149f2835f60cb03ff155524a5"
            + "7f78b148feceb84cd20b0ae22e3e48f433fbd9bfd60be8afec93165ee0310be961d3695f309d031320c830aa6ba08b5a51d943797097c57630be391bd23736cc", false),
        // tcId 9: length of digestInfo uses long form encoding
        (9, "313233343030",
         "8a0e82d4f334aca72a718b6f8f643f69c6048d619d5eba71263a5d2d3ac7a7af133b780c7595ca2c982c006e861948f543cd0210c758691f9626842c25de2843"
            + "ea314ca8eff285d47e0cffa54180af416004017034962a80a5959c3d3f1bfc154a4824462a93c014f6dfe920824f414a6e30e0e5944d480b99949ec7bf64c4a7"
            + "461575933b17d7d6b0178b5192392ace3ed8469e8ac1dacae51ad5d3ad73dcb213e056d04596e64d8c0703def3110c7cecc93ba8ac8059f0f3d66b89d8712c62"
            + "b41d407e4b4a104f4569558b0290c213cad6d0653898b9df8f4a453ab07d13bfb7598d505abbd0c4987e4f1ac66e1a523e113e370ab7cf990f0cc63f50f4f0a4", false),
        // tcId 212: modifying last byte of digest
        (212, "313233343030",
         "4142f9fb5e58eb4ed8c1dab74515c643b9bc4a013373e79c0280547fab695e88729600167ceba6460d7fe8bb2885d6488f0d929be7be7528910828106f16cc5e"
            + "39685450c8a859fd4b65a383dec054af0756e67b2ee0b2ea756b17e602c9f5ae20b062c5845596c5cce1b13572f54f251e2976c5d137168a6ade05a14227f719"
            + "bab6c40da8e8015687099fe78f79eae35a00bcbaa56729f60b8ce6b965ad03cef2c33c3519f07c1dd63e6d199cc56be298d027231d0b6e8471038da9f26474ad"
            + "bf28d52c6a582617046cc678f2cb19abe5491cfe9c8e396477fdd878adf244fbc19d78e9419035f3249ce52dbf281622df55fd8b3cb2c5131591e1d565f4f0bd", false),
        // tcId 215: The algorithm encoded in the padding is MD5 instead of SHA-256.
        (215, "313233343030",
         "16b5347808defc31a231c28edac36a3f1789d4c549e8f5c71e2fcf5d5304ba437b4c7c0eb7ffbd80f5c5b2277bf24412b39ee3e74c368517717c438bb88b80b1"
            + "2ad14f7295ecf8841947e5e7457e66d2f869c30d28e9ac2019d7e5eca6229812b649c8b6b4ccd4e17b254e7ab496aa5325525e7974be348dcd53c652e6315e67"
            + "0236bbbef2f501e246631b735c50e388ea3af8bb0030fb7fba9743eb70fc6687cfdb92d46a4537ce88dba96ef52744e22fb7257af1538e3ffc4e2d9ac9101d6f"
            + "71bc2f5aab71ddcc73a6c635500fa0a9174d25ebcc85dcd7dd85a7d2e8d3138effd171176bbdf23296ba3df630ee42185720ec141ceeaed1681a6ad0c156e099", false),
        // tcId 244: the signature is not reduced
        (244, "313233343030",
         "ba0d3d34d59915be6351725300fff4617210fa767b6c48522900ce2e2c8f88b3f855bc9de7609603f2f405a81d3d6c1b8ac05a79fd278bb9c6af6dc90a6323c5"
            + "d77c0562cded072bb63e9ce533d9ca497479ecf7d75e6b6a4d4a86418909b86521c5d6c7d5d634352d2ed6b15b16873f26b918e31b81e9363ad0ab373e7ac982"
            + "e6aa3eccaa4cb6dbc1a807b73082dfac6a5d7b2abbb0a8d3f12f3c8aac976fe66b44350a2b7a8840f53bcd1fe76d9a0bdec6c6eacfc2081b58c3e818f2e40bb8"
            + "d07b360c5fce83ece59267d39141c87807fdbee5b4ed5fc86e51111a57020211a593e4d91a6dd0ebde6317ebc12f52f405415527e7df07ba8af42ecbefc41d7d", false),
        // tcId 246: the signature is 2 bytes too long
        (246, "313233343030",
         "51a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab"
            + "393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22"
            + "da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a196981"
            + "6f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d50000", false),
        // tcId 247: the signature is empty
        (247, "313233343030",
         "", false),
        // tcId 252: the signature has value n
        (252, "313233343030",
         "a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097"
            + "b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d981"
            + "4c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a19"
            + "69816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d5", false),
    ]

    @Test(arguments: 0..<11)
    func wycheproofCases(index: Int) throws {
        guard case .rsa(let key) = try AsymmetricPublicKey(subjectPublicKeyInfo: TestBytes.hex(Self.wycheproofKeyDER)) else {
            Issue.record("not read as an RSA key")
            return
        }
        #expect(key.modulusBitCount == 2048)
        let (tcId, message, signature, valid) = Self.wycheproof[index]
        #expect(key.isValidSignature(TestBytes.hex(signature), for: TestBytes.hex(message)) == valid, "tcId \(tcId)")
    }

    /// RFC 9421 appendix B.1.1's `test-key-rsa` (a 2048-bit PKCS#1 key, as the RFC prints it).
    static let rfc9421PKCS1 = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEqAIBAAKCAQEAhAKYdtoeoy8zcAcR874L8cnZxKzAGwd7v36APp7Pv6Q2jdsP
        BRrwWEBnez6d0UDKDwGbc6nxfEXAy5mbhgajzrw3MOEt8uA5txSKobBpKDeBLOsd
        JKFqMGmXCQvEG7YemcxDTRPxAleIAgYYRjTSd/QBwVW9OwNFhekro3RtlinV0a75
        jfZgkne/YiktSvLG34lw2zqXBDTC5NHROUqGTlML4PlNZS5Ri2U4aCNx2rUPRcKI
        lE0PuKxI4T+HIaFpv8+rdV6eUgOrB2xeI1dSFFn/nnv5OoZJEIB+VmuKn3DCUcCZ
        SFlQPSXSfBDiUGhwOw76WuSSsf1D4b/vLoJ10wIDAQABAoIBAG/JZuSWdoVHbi56
        vjgCgkjg3lkO1KrO3nrdm6nrgA9P9qaPjxuKoWaKO1cBQlE1pSWp/cKncYgD5WxE
        CpAnRUXG2pG4zdkzCYzAh1i+c34L6oZoHsirK6oNcEnHveydfzJL5934egm6p8DW
        +m1RQ70yUt4uRc0YSor+q1LGJvGQHReF0WmJBZHrhz5e63Pq7lE0gIwuBqL8SMaA
        yRXtK+JGxZpImTq+NHvEWWCu09SCq0r838ceQI55SvzmTkwqtC+8AT2zFviMZkKR
        Qo6SPsrqItxZWRty2izawTF0Bf5S2VAx7O+6t3wBsQ1sLptoSgX3QblELY5asI0J
        YFz7LJECgYkAsqeUJmqXE3LP8tYoIjMIAKiTm9o6psPlc8CrLI9CH0UbuaA2JCOM
        cCNq8SyYbTqgnWlB9ZfcAm/cFpA8tYci9m5vYK8HNxQr+8FS3Qo8N9RJ8d0U5Csw
        DzMYfRghAfUGwmlWj5hp1pQzAuhwbOXFtxKHVsMPhz1IBtF9Y8jvgqgYHLbmyiu1
        mwJ5AL0pYF0G7x81prlARURwHo0Yf52kEw1dxpx+JXER7hQRWQki5/NsUEtv+8RT
        qn2m6qte5DXLyn83b1qRscSdnCCwKtKWUug5q2ZbwVOCJCtmRwmnP131lWRYfj67
        B/xJ1ZA6X3GEf4sNReNAtaucPEelgR2nsN0gKQKBiGoqHWbK1qYvBxX2X3kbPDkv
        9C+celgZd2PW7aGYLCHq7nPbmfDV0yHcWjOhXZ8jRMjmANVR/eLQ2EfsRLdW69bn
        f3ZD7JS1fwGnO3exGmHO3HZG+6AvberKYVYNHahNFEw5TsAcQWDLRpkGybBcxqZo
        81YCqlqidwfeO5YtlO7etx1xLyqa2NsCeG9A86UjG+aeNnXEIDk1PDK+EuiThIUa
        /2IxKzJKWl1BKr2d4xAfR0ZnEYuRrbeDQYgTImOlfW6/GuYIxKYgEKCFHFqJATAG
        IxHrq1PDOiSwXd2GmVVYyEmhZnbcp8CxaEMQoevxAta0ssMK3w6UsDtvUvYvF22m
        qQKBiD5GwESzsFPy3Ga0MvZpn3D6EJQLgsnrtUPZx+z2Ep2x0xc5orneB5fGyF1P
        WtP+fG5Q6Dpdz3LRfm+KwBCWFKQjg7uTxcjerhBWEYPmEMKYwTJF5PBG9/ddvHLQ
        EQeNC8fHGg4UXU8mhHnSBt3EA10qQJfRDs15M38eG2cYwB1PZpDHScDnDA0=
        -----END RSA PRIVATE KEY-----
        """

    /// The same key in PKCS#8, as a Google service account's `private_key` holds one (made with
    /// OpenSSL 3.0: `openssl pkcs8 -topk8 -nocrypt -in test-key-rsa.pem`).
    static let rfc9421PKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIIEwgIBADANBgkqhkiG9w0BAQEFAASCBKwwggSoAgEAAoIBAQCEAph22h6jLzNw
        BxHzvgvxydnErMAbB3u/foA+ns+/pDaN2w8FGvBYQGd7Pp3RQMoPAZtzqfF8RcDL
        mZuGBqPOvDcw4S3y4Dm3FIqhsGkoN4Es6x0koWowaZcJC8Qbth6ZzENNE/ECV4gC
        BhhGNNJ39AHBVb07A0WF6SujdG2WKdXRrvmN9mCSd79iKS1K8sbfiXDbOpcENMLk
        0dE5SoZOUwvg+U1lLlGLZThoI3HatQ9FwoiUTQ+4rEjhP4choWm/z6t1Xp5SA6sH
        bF4jV1IUWf+ee/k6hkkQgH5Wa4qfcMJRwJlIWVA9JdJ8EOJQaHA7Dvpa5JKx/UPh
        v+8ugnXTAgMBAAECggEAb8lm5JZ2hUduLnq+OAKCSODeWQ7Uqs7eet2bqeuAD0/2
        po+PG4qhZoo7VwFCUTWlJan9wqdxiAPlbEQKkCdFRcbakbjN2TMJjMCHWL5zfgvq
        hmgeyKsrqg1wSce97J1/Mkvn3fh6CbqnwNb6bVFDvTJS3i5FzRhKiv6rUsYm8ZAd
        F4XRaYkFkeuHPl7rc+ruUTSAjC4GovxIxoDJFe0r4kbFmkiZOr40e8RZYK7T1IKr
        Svzfxx5AjnlK/OZOTCq0L7wBPbMW+IxmQpFCjpI+yuoi3FlZG3LaLNrBMXQF/lLZ
        UDHs77q3fAGxDWwum2hKBfdBuUQtjlqwjQlgXPsskQKBiQCyp5QmapcTcs/y1igi
        MwgAqJOb2jqmw+VzwKssj0IfRRu5oDYkI4xwI2rxLJhtOqCdaUH1l9wCb9wWkDy1
        hyL2bm9grwc3FCv7wVLdCjw31Enx3RTkKzAPMxh9GCEB9QbCaVaPmGnWlDMC6HBs
        5cW3EodWww+HPUgG0X1jyO+CqBgctubKK7WbAnkAvSlgXQbvHzWmuUBFRHAejRh/
        naQTDV3GnH4lcRHuFBFZCSLn82xQS2/7xFOqfabqq17kNcvKfzdvWpGxxJ2cILAq
        0pZS6DmrZlvBU4IkK2ZHCac/XfWVZFh+PrsH/EnVkDpfcYR/iw1F40C1q5w8R6WB
        Haew3SApAoGIaiodZsrWpi8HFfZfeRs8OS/0L5x6WBl3Y9btoZgsIeruc9uZ8NXT
        IdxaM6FdnyNEyOYA1VH94tDYR+xEt1br1ud/dkPslLV/Aac7d7EaYc7cdkb7oC9t
        6sphVg0dqE0UTDlOwBxBYMtGmQbJsFzGpmjzVgKqWqJ3B947li2U7t63HXEvKprY
        2wJ4b0DzpSMb5p42dcQgOTU8Mr4S6JOEhRr/YjErMkpaXUEqvZ3jEB9HRmcRi5Gt
        t4NBiBMiY6V9br8a5gjEpiAQoIUcWokBMAYjEeurU8M6JLBd3YaZVVjISaFmdtyn
        wLFoQxCh6/EC1rSywwrfDpSwO29S9i8XbaapAoGIPkbARLOwU/LcZrQy9mmfcPoQ
        lAuCyeu1Q9nH7PYSnbHTFzmiud4Hl8bIXU9a0/58blDoOl3PctF+b4rAEJYUpCOD
        u5PFyN6uEFYRg+YQwpjBMkXk8Eb39128ctARB40Lx8caDhRdTyaEedIG3cQDXSpA
        l9EOzXkzfx4bZxjAHU9mkMdJwOcMDQ==
        -----END PRIVATE KEY-----
        """

    /// OpenSSL 3.0's RSASSA-PKCS1-v1_5 SHA-256 signature of "PushSim RS256 check" with that key
    /// (`openssl dgst -sha256 -sign test-key-rsa.pem`); PKCS#1 v1.5 signatures are deterministic,
    /// so ours must be the same bytes.
    static let opensslSignature = "4282b22770ffe8ea55c571cf252bf8e8d4ed79015d6c7e243fb7807350d8e1c21b22d824fa3618b80215aae16241f28acd9233443ffaf4f55e29c4bd0ea5bca8"
        + "cbdebebda23efd8041cad7abdd04cd7ccf24759256074d9068d99a5d386617c6a07351929ace52b51fdf57c2702d0848a0c56b3db37484a752320bdb8f916c00"
        + "60ae2ac0eb92769669488a601b160e33a656554277b2154867cbe62ec70b08793d005b6e350808bb24f6df3f2026161423dcd1df49b4fd24f025d4a4938b1a5e"
        + "f959aa5d1a9bda6958a672e6e6dad45581823661f503546539e6f9ac42db0909e315fcb66184032adc6287912c85391fdaa3f1f283ab32d5eb469e9406e3b266"

    @Test func rfc9421KeySignsAsOpenSSLDoes() throws {
        guard case .rsa(let fromPKCS8) = try AsymmetricPrivateKey(pem: Self.rfc9421PKCS8),
              case .rsa(let fromPKCS1) = try AsymmetricPrivateKey(pem: Self.rfc9421PKCS1) else {
            Issue.record("not read as RSA keys")
            return
        }
        #expect(fromPKCS8.publicKey == fromPKCS1.publicKey)
        #expect(fromPKCS8.publicKey.exponent == [0x01, 0x00, 0x01])
        #expect(fromPKCS8.publicKey.modulusBitCount == 2048)
        let message = Array("PushSim RS256 check".utf8)
        let signature = fromPKCS8.signature(for: message)
        #expect(TestBytes.hex(signature) == Self.opensslSignature)
        #expect(fromPKCS1.publicKey.isValidSignature(signature, for: message))
        #expect(!fromPKCS1.publicKey.isValidSignature(signature, for: message + [0x20]))
    }

    /// The Montgomery power against `UInt64` arithmetic, for one-word odd moduli.
    @Test func powerAgreesWithPlainArithmetic() throws {
        var random = SeededRandom(seed: 0x5eed_0501)
        for _ in 0..<30 {
            let modulus = random.next() | 1 | 1 << 63
            let base = random.next() % modulus, exponent = random.next() >> 40
            guard let arithmetic = RSAModulusArithmetic(modulus: RSAModulusArithmetic.bytes([modulus], count: 8)[...]) else {
                Issue.record("odd modulus refused")
                return
            }
            var expected: UInt64 = 1
            for bit in stride(from: 63, through: 0, by: -1) {
                expected = modMultiply(expected, expected, modulus)
                if (exponent >> UInt64(bit)) & 1 == 1 { expected = modMultiply(expected, base, modulus) }
            }
            #expect(arithmetic.power([base], [exponent]) == [expected])
        }
    }

    func modMultiply(_ a: UInt64, _ b: UInt64, _ m: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return m.dividingFullWidth((product.high, product.low)).remainder
    }

    @Test func keysOutOfRangeAreRefused() throws {
        let modulus = [UInt8](repeating: 0xFF, count: 256)
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: modulus, exponent: [1]) }         // e = 1
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: modulus, exponent: [0x01, 0x00]) } // even e
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: Array(modulus.dropLast()) + [0xFE], exponent: [3]) } // even n
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 32), exponent: [3]) } // 256 bits
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: modulus, exponent: modulus + [1]) } // e > n
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: modulus, exponent: [1] + [UInt8](repeating: 0, count: 8) + [1]) } // e ≥ 2⁶⁴
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 1025), exponent: [3]) } // 8200 bits
        #expect(try RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 1024), exponent: [3]).modulusBitCount == 8192)
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: [], exponent: []) }
    }
}

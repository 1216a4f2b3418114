import Testing
@Test func placeholderFormats() { #expect(1 == 1) }

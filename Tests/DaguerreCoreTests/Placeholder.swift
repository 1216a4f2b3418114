import Testing
@Test func placeholderCore() { #expect(1 == 1) }

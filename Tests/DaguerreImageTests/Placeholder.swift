import Testing
@Test func placeholderImage() { #expect(1 == 1) }

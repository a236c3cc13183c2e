import PushSimNetwork
@testable import PushSimHub
import Testing

/// The one table of per-platform facts (`RegistrationPlatform.traits`): its codes decode back to
/// their platform, and no two platforms share a name the hub reads back.
@Suite("Registration platform table")
struct RegistrationPlatformTableTests {
    @Test("every platform's storage code decodes to itself and fits the store's 3 bits")
    func storageCodesRoundTrip() {
        for p in RegistrationPlatform.allCases {
            #expect(Int(p.storageCode) < RegistrationPlatform.storageCodeCount)
            #expect(RegistrationPlatform(storageCode: p.storageCode) == p)
        }
        #expect(Set(RegistrationPlatform.allCases.map(\.storageCode)).count == RegistrationPlatform.allCases.count)
    }

    @Test("every name the hub reads back is distinct and reads back to its platform")
    func namesAreDistinct() {
        let all = RegistrationPlatform.allCases
        func distinct(_ names: [String]) -> Bool { Set(names).count == names.count }
        #expect(distinct(all.map(\.descriptionElement)))
        #expect(distinct(all.map(\.sendFormat)))
        #expect(distinct(all.map { $0.installationPlatform.lowercased() }))
        #expect(distinct(all.map(\.outcomeCountsElement)))
        for p in all {
            #expect(RegistrationPlatform(descriptionElement: p.descriptionElement) == p)
            #expect(RegistrationPlatform(sendFormat: p.sendFormat) == p)
            #expect(RegistrationPlatform(installationPlatform: p.installationPlatform) == p)
        }
        // Handles: only MPNS, retired, shares WNS's `ChannelUri`.
        #expect(distinct(all.filter { $0 != .mpns }.map(\.handleElement)))
    }

    @Test("each push service has exactly one live platform, whose format is the service's hub format")
    func servicesMatchTheirPlatforms() {
        for service in PushServiceDescriptor.all + [.webPush] {
            let platforms = RegistrationPlatform.allCases.filter { $0.service == service }
            #expect(platforms.count == 1, "\(service)")
            #expect(platforms.first?.sendFormat == service.hubFormat)
        }
        for p in RegistrationPlatform.allCases {
            #expect(p.isRetired == (p.service == nil))
            if let adapter = p.traits.adapter {
                #expect((PushServiceDescriptor.all + [.webPush]).contains(adapter.service), "\(p)")
            }
        }
    }
}

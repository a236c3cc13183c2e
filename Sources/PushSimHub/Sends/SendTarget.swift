import PushSimKernel
import PushSimNetwork

/// One copy's destination: a registration, an installation (natively or through one of its
/// templates), or a handle given with a direct send.
///
/// Sends route to installations exactly as to registrations (NH-REG: an installation is "an enhanced
/// registration"): a native send reaches the native registrations and the installations of its
/// platform; a template send reaches every template registration and every installation template,
/// one notification per matching template (NH-TPL). An installation template matches with the
/// installation's tags, its implicit `$InstallationId:{id}`/`$UserId:{userId}` tags and the
/// template's own tags. Installations whose channel a PNS reported dead (`pushChannelExpired`) are
/// skipped until the channel is rewritten.
///
/// Fan-out order: registrations by creation (their id counter), then installations by id, then
/// template names sorted; never dictionary order.
struct SendTarget {
    enum Owner: Equatable {
        case registration(String)
        case installation(String)
        case direct
    }
    var owner: Owner
    /// The name traces use in their `registration` field: the registration id,
    /// `installation:<id>`, `installation:<id>#<template>`, or `direct:<n>`.
    var label: String
    var platform: RegistrationPlatform
    var handle: String
    /// For template sends.
    var template: HubTemplate?
    /// Last write of the registration or installation (the APNs 410 timestamp rule compares it).
    var updatedAt: VirtualTime
    /// Position in the send's fan-out, from 0 (orders a test send's results).
    var ordinal = 0

    static func installation(_ i: StoredInstallation, template name: String? = nil) -> SendTarget {
        SendTarget(owner: .installation(i.id), label: "installation:\(i.id)" + (name.map { "#\($0)" } ?? ""), platform: i.platform,
                   handle: i.pushChannel, template: name.flatMap { i.templates[$0] }, updatedAt: i.updatedAt)
    }

    /// The registration id or installation id, for feedback records and test-send results.
    var registrationID: String? { if case .registration(let id) = owner { return id } else { return nil } }
    var installationID: String? { if case .installation(let id) = owner { return id } else { return nil } }
}

extension NotificationHub {
    /// Every target of a native send to `platform` (template nil) or of a template send.
    func targets(native platform: RegistrationPlatform?, expression: TagExpression?, now: VirtualTime) -> SendTargets {
        let numbers: [Int32]
        if let platform {
            numbers = store.matchingNumbersReadInPlace(expression, platform: platform, now: now, template: false)
        } else {
            numbers = RegistrationPlatform.allCases.filter { !$0.isRetired }
                .flatMap { store.matchingNumbersReadInPlace(expression, platform: $0, now: now, template: true) }
                .sorted()
        }
        var others: [SendTarget] = []
        for i in installations.candidates(expression, now: now) where !i.pushChannelExpired {
            if let platform {
                guard i.platform == platform, expression?.matches(i.hasTag) ?? true else { continue }
                others.append(.installation(i))
            } else {
                for name in i.templateNames {
                    let extra = i.templates[name]!.tags
                    guard expression?.matches({ i.hasTag($0) || extra.contains($0) }) ?? true else { continue }
                    others.append(.installation(i, template: name))
                }
            }
        }
        return SendTargets(registrations: numbers, of: store.snapshot, then: others, allOf: platform)
    }

    /// The target as it is now, for a retry: nil when its registration or installation was
    /// deleted, expired, changed handle or (installations) had its channel reported dead since.
    func currentTarget(_ t: SendTarget, now: VirtualTime) -> SendTarget? {
        var current: SendTarget
        switch t.owner {
        case .direct: return t
        case .registration(let id):
            guard case .live(let r) = store.lookup(id, now: now), r.handle == t.handle else { return nil }
            current = store.sendTarget(r.number)
        case .installation(let id):
            guard let i = installations.lookup(id, now: now), i.pushChannel == t.handle, !i.pushChannelExpired else { return nil }
            if let name = t.template?.name {
                guard i.templates[name] != nil else { return nil }
                current = .installation(i, template: name)
            } else {
                current = .installation(i)
            }
        }
        current.ordinal = t.ordinal
        return current
    }
}

import Foundation

/// Distances on the Earth as CoreLocation measures them: along the WGS 84 ellipsoid (the GPS datum), in
/// metres, by Vincenty's inverse formula (Survey Review 23:176, 1975), which is exact to well under a
/// millimetre for any two points it converges on. It fails to converge only for points nearly antipodal;
/// those fall back to the great circle on a sphere of the ellipsoid's mean radius (within 0.5%, at twenty
/// thousand kilometres, where no region boundary lies).
public enum GeodesicDistance {
    static let semiMajorAxis = 6_378_137.0
    static let flattening = 1 / 298.257_223_563
    static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// The mean radius (2a + b) / 3.
    static let meanRadius = (2 * semiMajorAxis + semiMinorAxis) / 3

    /// Metres between two points given in degrees (latitude −90…90, longitude any).
    public static func metres(fromLatitude latitude1: Double, longitude longitude1: Double, toLatitude latitude2: Double, longitude longitude2: Double) -> Double {
        vincenty(latitude1, longitude1, latitude2, longitude2) ?? greatCircle(latitude1, longitude1, latitude2, longitude2)
    }

    private static func vincenty(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double? {
        let a = semiMajorAxis, b = semiMinorAxis, f = flattening
        let difference = radians(longitude2 - longitude1)
        let u1 = atan((1 - f) * tan(radians(latitude1)))
        let u2 = atan((1 - f) * tan(radians(latitude2)))
        let (sinU1, cosU1, sinU2, cosU2) = (sin(u1), cos(u1), sin(u2), cos(u2))
        var lambda = difference
        for _ in 0..<200 {
            let (sinLambda, cosLambda) = (sin(lambda), cos(lambda))
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda))
                .squareRoot()
            if sinSigma == 0 { return 0 }  // the same point
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cos²α is 0 and the term vanishes.
            let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = difference + (1 - c) * f * sinAlpha * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
                let bigA = 1 + uSquared / 16_384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
                let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
                let deltaSigma = bigB * sinSigma
                    * (cos2SigmaM + bigB / 4
                        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return b * bigA * (sigma - deltaSigma)
            }
        }
        return nil
    }

    /// The haversine distance on the mean sphere.
    private static func greatCircle(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let halfLatitude = sin(radians(latitude2 - latitude1) / 2)
        let halfLongitude = sin(radians(longitude2 - longitude1) / 2)
        let h = halfLatitude * halfLatitude + cos(radians(latitude1)) * cos(radians(latitude2)) * halfLongitude * halfLongitude
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }

    private static func radians(_ degrees: Double) -> Double {
        degrees * .pi / 180
    }
}

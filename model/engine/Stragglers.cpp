#include "Stragglers.h"

#include <cmath>

namespace cs {

double expectedMaxOfNormals(long long n) {
    if (n <= 1) return 0.0;
    // E[max] = integral of x n phi(x) Phi(x)^(n - 1): the integrand is smooth and vanishes
    // outside [-8, 8] for every n the engine takes (up to millions of GPUs).
    const double step = 1e-3, invSqrt2 = 1 / std::sqrt(2.0), invSqrt2Pi = 1 / std::sqrt(2 * M_PI);
    double sum = 0;
    for (double x = -8; x <= 8; x += step) {
        const double cdf = 0.5 * std::erfc(-x * invSqrt2);
        if (cdf <= 0) continue;
        const double pdf = invSqrt2Pi * std::exp(-0.5 * x * x);
        sum += x * double(n) * pdf * std::exp(double(n - 1) * std::log(cdf));
    }
    return sum * step;
}

double lockStepSlowdown(double hostSpreadFraction, long long gpus) {
    if (hostSpreadFraction <= 0 || gpus <= 1) return 1.0;
    static const double rangeOfEight = 2 * expectedMaxOfNormals(8);
    return 1 + hostSpreadFraction / rangeOfEight * expectedMaxOfNormals(gpus);
}

} // namespace cs

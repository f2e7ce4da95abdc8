// SPDX-License-Identifier: MIT
/*
 * A fixed integer and floating-point workload for `make bench`: a small
 * LCG-driven integer hash mix and a float matrix multiply. Prints a
 * checksum so the oracle can compare results, too.
 */
#include <stdint.h>
#include <stdio.h>

#define N 96

static float a[N][N], b[N][N], c[N][N];

int main(void)
{
	uint64_t x = 88172645463325252ull, h = 0;

	for (int i = 0; i < 100000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		h = (h * 31 + (x % 1000003)) ^ (h >> 11);
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = (float)((i * 7 + j * 3) % 17) / 16.0f;
			b[i][j] = (float)((i * 5 + j * 11) % 13) / 12.0f;
		}
	for (int r = 0; r < 60; r++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				float s = 0;

				for (int k = 0; k < N; k++)
					s += a[i][k] * b[k][j];
				c[i][j] = s + c[i][j] * 0.5f;
			}
	double sum = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			sum += c[i][j];
	printf("%016llx %.6f\n", (unsigned long long)h, sum);
	return 0;
}
